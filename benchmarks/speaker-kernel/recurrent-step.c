// The speaker encoder's recurrent step (kordant_recurrent_step) alone, per number of partial
// windows run together: thread CPU time per step (best of 7 rounds of 200 steps) and GFLOP/s, so a
// change to the kernel can be judged per row count even on a busy machine. Build and run:
//   /opt/swift/usr/bin/clang -O2 -I Sources/CKordantSpeaker/include \
//     benchmarks/speaker-kernel/recurrent-step.c Sources/CKordantSpeaker/kordant_speaker.c -o /tmp/recurrent-step -lm
//   /tmp/recurrent-step
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "kordant_speaker.h"

static double cpu_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(void) {
    enum { H = 256, G = 1024, MAXP = 24, STEPS = 200 };
    float *wt = aligned_alloc(64, sizeof(float) * G * H), *h = malloc(sizeof(float) * MAXP * H);
    float *gates = malloc(sizeof(float) * MAXP * G);
    srand(1);
    for (int i = 0; i < G * H; i++) wt[i] = (rand() / (float)RAND_MAX - 0.5f) * 0.1f;
    for (int i = 0; i < MAXP * H; i++) h[i] = rand() / (float)RAND_MAX - 0.5f;
    for (int i = 0; i < MAXP * G; i++) gates[i] = 0;
    printf("partials  us/step  GFLOP/s\n");
    for (int p = 1; p <= MAXP; p++) {
        double best = 1e9;
        for (int round = 0; round < 7; round++) {
            double t = cpu_now();
            for (int i = 0; i < STEPS; i++) kordant_recurrent_step(gates, h, wt, p, H, G);
            t = cpu_now() - t;
            if (t < best) best = t;
        }
        double per = best / STEPS;
        printf("%8d %8.1f %8.1f\n", p, per * 1e6, 2.0 * p * H * G / per / 1e9);
    }
    return 0;
}

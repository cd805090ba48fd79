/* PNG/JPEG decode time: Leptonica's pixRead against the engine's quiet readers (CKordantImage),
 * over the given files, three rounds.
 *   cc -O2 -ISources/CKordantImage/include benchmarks/images/decode-cost.c \
 *      Sources/CKordantImage/kordant_image.c -o /tmp/decode-cost -llept -lpng16 -ljpeg
 *   /tmp/decode-cost $(ls TestDocuments/*.png TestDocuments/*.jpg | grep -v bad_) */
#include <leptonica/allheaders.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "kordant_image.h"

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    setMsgSeverity(L_SEVERITY_NONE);
    for (int round = 0; round < 3; round++) {
        double leptonica = 0, quiet = 0;
        for (int i = 1; i < argc; i++) {
            double t0 = now();
            PIX *a = pixRead(argv[i]);
            double t1 = now();
            kordant_image_result r;
            PIX *b = strstr(argv[i], ".png") ? kordant_read_png(argv[i], 1LL << 40, &r) : kordant_read_jpeg(argv[i], 1LL << 40, &r);
            double t2 = now();
            leptonica += t1 - t0;
            quiet += t2 - t1;
            pixDestroy(&a);
            pixDestroy(&b);
        }
        printf("%d files: Leptonica %.1f ms, quiet readers %.1f ms\n", argc - 1, leptonica * 1e3, quiet * 1e3);
    }
    return 0;
}

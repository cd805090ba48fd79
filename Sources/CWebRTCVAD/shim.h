// WebRTC's voice activity detector, the one py-webrtcvad wraps, as exported by Debian's
// libwebrtc-audio-processing (0.3). The package installs no header for it, so the C API of
// common_audio/vad/include/webrtc_vad.h is declared here (checked against the library's code).
#include <stddef.h>
#include <stdint.h>

typedef struct WebRtcVadInst VadInst;

/// Allocates a detector (NULL on failure); free it with WebRtcVad_Free.
VadInst *WebRtcVad_Create(void);
void WebRtcVad_Free(VadInst *handle);
/// 0 on success, -1 on error.
int WebRtcVad_Init(VadInst *handle);
/// Aggressiveness 0…3; 0 on success, -1 on error.
int WebRtcVad_set_mode(VadInst *handle, int mode);
/// 1 speech, 0 non-speech, -1 error. Frames of 10, 20 or 30 ms at 8, 16, 32 or 48 kHz.
int WebRtcVad_Process(VadInst *handle, int fs, const int16_t *audio_frame, size_t frame_length);

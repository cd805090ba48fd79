#ifndef KORDANT_IMAGE_H
#define KORDANT_IMAGE_H

#include <stddef.h>

/// Leptonica's image, declared only: Swift sees it through CTesseract, which imports Leptonica.
struct Pix;

/// What a read produced besides the image.
typedef struct {
    /// KORDANT_IMAGE_OK, _UNREADABLE, _TOO_LARGE or _UNSUPPORTED.
    int status;
    /// From the header (set as soon as it is read, also on _TOO_LARGE).
    int width, height;
    /// Corruption libjpeg reported and went past (the read then fails with the first as message).
    int warnings;
    /// The library's own reason when status is _UNREADABLE.
    char message[200];
} kordant_image_result;

enum {
    KORDANT_IMAGE_OK = 0,
    KORDANT_IMAGE_UNREADABLE = 1,
    KORDANT_IMAGE_TOO_LARGE = 2,
    /// A layout this reader leaves to Leptonica (interlaced PNG, JPEG of 2 components).
    KORDANT_IMAGE_UNSUPPORTED = 3,
};

/// Decodes a PNG with libpng's errors and warnings routed into `result` instead of stderr
/// (Leptonica's own reader leaves libpng's defaults, which print). Gray → 8 bpp; palette, low bit
/// depths and 16 bits expand to 8 bits per sample; colour → 32 bpp RGB(A). Refuses before decoding
/// when width × height exceeds `max_pixels`.
struct Pix *kordant_read_png(const char *path, long long max_pixels, kordant_image_result *result);

/// Decodes a baseline or progressive JPEG (gray → 8 bpp, colour → 32 bpp RGB) with libjpeg's
/// messages kept out of stderr. Data libjpeg calls corrupt but decodes past (filling with grey)
/// fails the read, with libjpeg's first complaint in `message`.
struct Pix *kordant_read_jpeg(const char *path, long long max_pixels, kordant_image_result *result);

#endif

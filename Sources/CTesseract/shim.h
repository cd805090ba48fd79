// Leptonica and Tesseract are imported as one module: Tesseract's C API takes Leptonica's
// `Pix`, which would be an unrelated opaque type if the two were imported separately.
#include <leptonica/allheaders.h>
#include <tesseract/capi.h>

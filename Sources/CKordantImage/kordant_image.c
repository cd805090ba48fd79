// PNG and JPEG decoding into Leptonica images without anything reaching stderr: the libraries'
// error paths longjmp, which Swift frames must never be crossed by, so this lives in C.
#include "kordant_image.h"

#include <leptonica/allheaders.h>
#include <png.h>
#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

static void set_message(kordant_image_result *r, const char *prefix, const char *text) {
    snprintf(r->message, sizeof r->message, "%s%s", prefix, text ? text : "");
}

// Clears `r` and opens `path`, or says why not.
static FILE *open_input(const char *path, kordant_image_result *r) {
    memset(r, 0, sizeof *r);
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        r->status = KORDANT_IMAGE_UNREADABLE;
        set_message(r, "cannot open: ", strerror(errno));
    }
    return fp;
}

// ---- PNG -------------------------------------------------------------------------------------

static void png_quiet_error(png_structp png, png_const_charp text) {
    set_message((kordant_image_result *)png_get_error_ptr(png), "", text);
    png_longjmp(png, 1);
}

static void png_quiet_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

struct Pix *kordant_read_png(const char *path, long long max_pixels, kordant_image_result *r) {
    FILE *fp = open_input(path, r);
    if (!fp) return NULL;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, r, png_quiet_error, png_quiet_warning);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info) {
        png_destroy_read_struct(&png, NULL, NULL);
        fclose(fp);
        r->status = KORDANT_IMAGE_UNREADABLE;
        set_message(r, "", "out of memory");
        return NULL;
    }
    // Written between setjmp and a longjmp back, so volatile.
    PIX *volatile pix = NULL;
    png_bytep volatile row = NULL;
    if (setjmp(png_jmpbuf(png))) {
        PIX *p = pix;
        pixDestroy(&p);
        free(row);
        png_destroy_read_struct(&png, &info, NULL);
        fclose(fp);
        if (r->status == KORDANT_IMAGE_OK) r->status = KORDANT_IMAGE_UNREADABLE;
        return NULL;
    }
    png_init_io(png, fp);
    png_read_info(png, info);
    png_uint_32 w = png_get_image_width(png, info), h = png_get_image_height(png, info);
    r->width = (int)w;
    r->height = (int)h;
    if ((long long)w * (long long)h > max_pixels) {
        r->status = KORDANT_IMAGE_TOO_LARGE;
        png_longjmp(png, 1);
    }
    if (png_get_interlace_type(png, info) != PNG_INTERLACE_NONE) {
        // Needs the whole image in a second buffer; rare in scans, so Leptonica reads these.
        r->status = KORDANT_IMAGE_UNSUPPORTED;
        png_longjmp(png, 1);
    }
    int type = png_get_color_type(png, info);
    if (type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (type == PNG_COLOR_TYPE_GRAY && png_get_bit_depth(png, info) < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if (png_get_bit_depth(png, info) == 16) png_set_strip_16(png);
    if (type == PNG_COLOR_TYPE_GRAY_ALPHA || (type == PNG_COLOR_TYPE_GRAY && png_get_valid(png, info, PNG_INFO_tRNS)))
        png_set_gray_to_rgb(png);
    png_read_update_info(png, info);
    int channels = png_get_channels(png, info);
    if (channels != 1 && channels != 3 && channels != 4) {
        r->status = KORDANT_IMAGE_UNSUPPORTED;
        png_longjmp(png, 1);
    }
    pix = pixCreate((l_int32)w, (l_int32)h, channels == 1 ? 8 : 32);
    row = malloc(png_get_rowbytes(png, info));
    if (!pix || !row) {
        set_message(r, "", "out of memory");
        png_longjmp(png, 1);
    }
    if (channels > 1) pixSetSpp(pix, channels);
    l_uint32 *data = pixGetData(pix);
    l_int32 wpl = pixGetWpl(pix);
    for (png_uint_32 y = 0; y < h; y++) {
        png_read_row(png, row, NULL);
        l_uint32 *line = data + (size_t)y * (size_t)wpl;
        if (channels == 1) {
            for (png_uint_32 x = 0; x < w; x++) SET_DATA_BYTE(line, x, row[x]);
        } else {
            const png_byte *s = row;
            for (png_uint_32 x = 0; x < w; x++, s += channels) {
                SET_DATA_BYTE(line + x, COLOR_RED, s[0]);
                SET_DATA_BYTE(line + x, COLOR_GREEN, s[1]);
                SET_DATA_BYTE(line + x, COLOR_BLUE, s[2]);
                if (channels == 4) SET_DATA_BYTE(line + x, L_ALPHA_CHANNEL, s[3]);
            }
        }
    }
    png_read_end(png, NULL);
    png_uint_32 xres = 0, yres = 0;
    int unit = 0;
    if (png_get_pHYs(png, info, &xres, &yres, &unit) && unit == PNG_RESOLUTION_METER) {
        // Pixels per metre to per inch, rounded as Leptonica rounds it.
        pixSetResolution(pix, (l_int32)((l_float32)xres / 39.37f + 0.5f), (l_int32)((l_float32)yres / 39.37f + 0.5f));
    }
    pixSetInputFormat(pix, IFF_PNG);
    free(row);
    png_destroy_read_struct(&png, &info, NULL);
    fclose(fp);
    return pix;
}

// ---- JPEG ------------------------------------------------------------------------------------

struct quiet_jpeg_error {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    kordant_image_result *result;
};

static void jpeg_quiet_exit(j_common_ptr info) {
    struct quiet_jpeg_error *e = (struct quiet_jpeg_error *)info->err;
    char text[JMSG_LENGTH_MAX];
    (*info->err->format_message)(info, text);
    set_message(e->result, "", text);
    longjmp(e->jump, 1);
}

// Warnings (level -1: recoverable corruption) are counted and the first one kept; trace
// messages are dropped.
static void jpeg_quiet_emit(j_common_ptr info, int level) {
    if (level >= 0) return;
    struct quiet_jpeg_error *e = (struct quiet_jpeg_error *)info->err;
    if (info->err->num_warnings++ == 0) {
        char text[JMSG_LENGTH_MAX];
        (*info->err->format_message)(info, text);
        set_message(e->result, "", text);
    }
}

static void jpeg_quiet_output(j_common_ptr info) { (void)info; }

struct Pix *kordant_read_jpeg(const char *path, long long max_pixels, kordant_image_result *r) {
    FILE *fp = open_input(path, r);
    if (!fp) return NULL;
    struct jpeg_decompress_struct info;
    struct quiet_jpeg_error error;
    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = jpeg_quiet_exit;
    error.manager.emit_message = jpeg_quiet_emit;
    error.manager.output_message = jpeg_quiet_output;
    error.result = r;
    PIX *volatile pix = NULL;
    JSAMPROW volatile row = NULL;
    if (setjmp(error.jump)) {
        PIX *p = pix;
        pixDestroy(&p);
        free(row);
        jpeg_destroy_decompress(&info);
        fclose(fp);
        if (r->status == KORDANT_IMAGE_OK) r->status = KORDANT_IMAGE_UNREADABLE;
        return NULL;
    }
    jpeg_create_decompress(&info);
    jpeg_stdio_src(&info, fp);
    jpeg_read_header(&info, TRUE);
    r->width = (int)info.image_width;
    r->height = (int)info.image_height;
    if ((long long)info.image_width * (long long)info.image_height > max_pixels) {
        r->status = KORDANT_IMAGE_TOO_LARGE;
        longjmp(error.jump, 1);
    }
    if (info.num_components != 1 && info.num_components != 3 && info.num_components != 4) {
        r->status = KORDANT_IMAGE_UNSUPPORTED;
        longjmp(error.jump, 1);
    }
    // CMYK and YCCK are read here too (libjpeg gives CMYK for both), not by Leptonica's reader,
    // whose libjpeg prints "Premature end of JPEG file" on stderr for a cut file (found by FuzzImage).
    info.out_color_space = info.num_components == 1 ? JCS_GRAYSCALE : info.num_components == 3 ? JCS_RGB : JCS_CMYK;
    jpeg_start_decompress(&info);
    l_int32 w = (l_int32)info.output_width, h = (l_int32)info.output_height;
    int channels = info.output_components;
    if (channels != 1 && channels != 3 && channels != 4) {
        r->status = KORDANT_IMAGE_UNSUPPORTED;
        longjmp(error.jump, 1);
    }
    pix = pixCreate(w, h, channels == 1 ? 8 : 32);
    row = malloc((size_t)w * (size_t)channels);
    if (!pix || !row) {
        set_message(r, "", "out of memory");
        longjmp(error.jump, 1);
    }
    if (channels > 1) pixSetSpp(pix, 3);
    // Photoshop writes CMYK inverted and marks such files with its Adobe marker.
    int inverted = info.saw_Adobe_marker;
    l_uint32 *data = pixGetData(pix);
    l_int32 wpl = pixGetWpl(pix);
    for (l_int32 y = 0; y < h; y++) {
        JSAMPROW rows[1] = {row};
        if (jpeg_read_scanlines(&info, rows, 1) != 1) {
            set_message(r, "", "no scanline returned");
            longjmp(error.jump, 1);
        }
        l_uint32 *line = data + (size_t)y * (size_t)wpl;
        if (channels == 1) {
            for (l_int32 x = 0; x < w; x++) SET_DATA_BYTE(line, x, row[x]);
        } else if (channels == 3) {
            const JSAMPLE *s = row;
            for (l_int32 x = 0; x < w; x++, s += 3) {
                SET_DATA_BYTE(line + x, COLOR_RED, s[0]);
                SET_DATA_BYTE(line + x, COLOR_GREEN, s[1]);
                SET_DATA_BYTE(line + x, COLOR_BLUE, s[2]);
            }
        } else {
            const JSAMPLE *s = row;
            for (l_int32 x = 0; x < w; x++, s += 4) {
                int c = s[0], m = s[1], yy = s[2], k = s[3];
                if (!inverted) { c = 255 - c; m = 255 - m; yy = 255 - yy; k = 255 - k; }
                SET_DATA_BYTE(line + x, COLOR_RED, k * c / 255);
                SET_DATA_BYTE(line + x, COLOR_GREEN, k * m / 255);
                SET_DATA_BYTE(line + x, COLOR_BLUE, k * yy / 255);
            }
        }
    }
    if (info.density_unit == 1) {
        pixSetResolution(pix, info.X_density, info.Y_density);
    } else if (info.density_unit == 2) {
        // Pixels per centimetre to per inch, rounded as Leptonica rounds it.
        pixSetResolution(pix, (l_int32)((l_float32)info.X_density * 2.54f + 0.5f), (l_int32)((l_float32)info.Y_density * 2.54f + 0.5f));
    }
    pixSetInputFormat(pix, IFF_JFIF_JPEG);
    r->warnings = (int)info.err->num_warnings;
    if (r->warnings > 0) {
        // Damaged data (libjpeg fills what it lost with grey): refused, as Leptonica's reader
        // refuses it here, with the decoder's first complaint as the reason.
        longjmp(error.jump, 1);
    }
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    free(row);
    fclose(fp);
    return pix;
}

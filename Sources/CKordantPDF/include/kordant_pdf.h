#ifndef KORDANT_PDF_H
#define KORDANT_PDF_H

#ifdef __cplusplus
extern "C" {
#endif

/// Leptonica's image, declared only: Swift sees it through CTesseract, which imports Leptonica.
struct Pix;

/// An open PDF (poppler's document), owned by the caller: free with kordant_pdf_close.
typedef struct kordant_pdf kordant_pdf;

enum {
    KORDANT_PDF_OK = 0,
    /// Not a PDF poppler can open (damaged, truncated, not a PDF); poppler's last message in `message`.
    KORDANT_PDF_UNREADABLE = 1,
    /// Encrypted with a user password (the text and pages cannot be read without it).
    KORDANT_PDF_ENCRYPTED = 2,
};

/// Opens `path`; on failure returns NULL with `status` set and poppler's last message in
/// `message` (NUL-terminated, truncated to `message_size`). Poppler's messages never reach stderr.
kordant_pdf *kordant_pdf_open(const char *path, int *status, char *message, int message_size);
void kordant_pdf_close(kordant_pdf *pdf);
int kordant_pdf_page_count(const kordant_pdf *pdf);
/// The page's crop box in points (1/72 inch), after its rotation; 0 when the page cannot be loaded.
int kordant_pdf_page_size(const kordant_pdf *pdf, int page, double *width, double *height);
/// The page's text layer as UTF-8 in reading order (malloc'd; free it), "" when it has none,
/// NULL when the page cannot be loaded.
char *kordant_pdf_page_text(const kordant_pdf *pdf, int page);
/// One word of a page's text layer: UTF-8 text (malloc'd) and its box in points from the page's
/// top-left corner.
typedef struct {
    char *text;
    double x, y, width, height;
} kordant_pdf_word;

/// The words of the page's text layer in poppler's reading order (malloc'd array of `*count`;
/// free with kordant_pdf_free_words), NULL with `*count` 0 when it has none or cannot be loaded.
kordant_pdf_word *kordant_pdf_page_words(const kordant_pdf *pdf, int page, int *count);
void kordant_pdf_free_words(kordant_pdf_word *words, int count);

/// The page rendered at `dpi` (anti-aliased, white paper) as a new 32-bpp RGB Leptonica image
/// with its resolution set, or NULL.
struct Pix *kordant_pdf_render(const kordant_pdf *pdf, int page, double dpi);

#ifdef __cplusplus
}
#endif

#endif

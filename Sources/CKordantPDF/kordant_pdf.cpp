// A C face for poppler's C++ API (Swift imports C), owning poppler's objects. Poppler reports
// errors through a process-wide function: it is pointed at a per-thread buffer so nothing prints.
#include "kordant_pdf.h"

#include <leptonica/allheaders.h>
#include <poppler/cpp/poppler-document.h>
#include <poppler/cpp/poppler-global.h>
#include <poppler/cpp/poppler-image.h>
#include <poppler/cpp/poppler-page-renderer.h>
#include <poppler/cpp/poppler-page.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

struct kordant_pdf {
    std::unique_ptr<poppler::document> document;
};

namespace {
thread_local std::string last_message;

void keep_message(const std::string &message, void *) { last_message = message; }

void quiet() {
    static std::once_flag once;
    std::call_once(once, [] { poppler::set_debug_error_function(keep_message, nullptr); });
}

// The first page poppler lays out in a process creates its global colour profiles
// (GfxState::sRGBProfile, GfxXYZ2DisplayTransforms::XYZProfile) without a lock: two workers doing
// it at once (a PDF's pages read with --jobs 2, a document per worker) can overwrite or free each
// other's profile (LeakSanitizer once caught a lost one in CI). Laying out any page makes both, so
// page work runs one at a time until one page has been laid out; then the profiles are only read.
struct first_layout {
    std::atomic<bool> done{false};
    std::mutex lock;

    template <typename Work> auto operator()(Work &&work) -> decltype(work()) {
        if (done.load(std::memory_order_acquire)) return work();
        std::lock_guard<std::mutex> held(lock);
        auto result = work();
        done.store(true, std::memory_order_release);
        return result;
    }
};

first_layout &laid_out() {
    static first_layout gate;
    return gate;
}

std::unique_ptr<poppler::page> load_page(const kordant_pdf *pdf, int index) {
    if (!pdf || index < 0 || index >= pdf->document->pages()) return nullptr;
    return std::unique_ptr<poppler::page>(pdf->document->create_page(index));
}
}  // namespace

extern "C" kordant_pdf *kordant_pdf_open(const char *path, int *status, char *message, int message_size) {
    quiet();
    last_message.clear();
    std::unique_ptr<poppler::document> doc(poppler::document::load_from_file(path));
    int result = KORDANT_PDF_OK;
    if (!doc) result = KORDANT_PDF_UNREADABLE;
    else if (doc->is_locked()) result = KORDANT_PDF_ENCRYPTED;
    if (status) *status = result;
    if (message && message_size > 0) {
        std::strncpy(message, last_message.c_str(), static_cast<size_t>(message_size) - 1);
        message[message_size - 1] = 0;
    }
    if (result != KORDANT_PDF_OK) return nullptr;
    return new kordant_pdf{std::move(doc)};
}

extern "C" void kordant_pdf_close(kordant_pdf *pdf) { delete pdf; }

extern "C" int kordant_pdf_page_count(const kordant_pdf *pdf) { return pdf ? pdf->document->pages() : 0; }

extern "C" int kordant_pdf_page_size(const kordant_pdf *pdf, int index, double *width, double *height) {
    auto page = load_page(pdf, index);
    if (!page) return 0;
    poppler::rectf box = page->page_rect(poppler::crop_box);
    bool sideways = page->orientation() == poppler::page::landscape || page->orientation() == poppler::page::seascape;
    *width = sideways ? box.height() : box.width();
    *height = sideways ? box.width() : box.height();
    return 1;
}

extern "C" char *kordant_pdf_page_text(const kordant_pdf *pdf, int index) {
    auto page = load_page(pdf, index);
    if (!page) return nullptr;
    poppler::byte_array utf8 = laid_out()([&] { return page->text().to_utf8(); });
    char *out = static_cast<char *>(std::malloc(utf8.size() + 1));
    if (!out) return nullptr;
    if (!utf8.empty()) std::memcpy(out, utf8.data(), utf8.size());
    out[utf8.size()] = 0;
    return out;
}

extern "C" kordant_pdf_word *kordant_pdf_page_words(const kordant_pdf *pdf, int index, int *count) {
    *count = 0;
    auto page = load_page(pdf, index);
    if (!page) return nullptr;
    std::vector<poppler::text_box> boxes = laid_out()([&] { return page->text_list(); });
    if (boxes.empty()) return nullptr;
    auto *words = static_cast<kordant_pdf_word *>(std::calloc(boxes.size(), sizeof(kordant_pdf_word)));
    if (!words) return nullptr;
    int n = 0;
    for (const poppler::text_box &box : boxes) {
        poppler::byte_array utf8 = box.text().to_utf8();
        char *text = static_cast<char *>(std::malloc(utf8.size() + 1));
        if (!text) break;
        if (!utf8.empty()) std::memcpy(text, utf8.data(), utf8.size());
        text[utf8.size()] = 0;
        poppler::rectf r = box.bbox();
        words[n++] = kordant_pdf_word{text, r.x(), r.y(), r.width(), r.height()};
    }
    *count = n;
    return words;
}

extern "C" void kordant_pdf_free_words(kordant_pdf_word *words, int count) {
    if (!words) return;
    for (int i = 0; i < count; i++) std::free(words[i].text);
    std::free(words);
}

extern "C" struct Pix *kordant_pdf_render(const kordant_pdf *pdf, int index, double dpi) {
    auto page = load_page(pdf, index);
    if (!page) return nullptr;
    poppler::page_renderer renderer;
    renderer.set_render_hint(poppler::page_renderer::antialiasing, true);
    renderer.set_render_hint(poppler::page_renderer::text_antialiasing, true);
    renderer.set_paper_color(0xFFFFFFFF);
    renderer.set_image_format(poppler::image::format_argb32);
    poppler::image image = laid_out()([&] { return renderer.render_page(page.get(), dpi, dpi); });
    if (!image.is_valid() || image.format() != poppler::image::format_argb32) return nullptr;
    const int w = image.width(), h = image.height();
    PIX *pix = pixCreate(w, h, 32);
    if (!pix) return nullptr;
    pixSetResolution(pix, static_cast<l_int32>(dpi + 0.5), static_cast<l_int32>(dpi + 0.5));
    l_uint32 *dst = pixGetData(pix);
    const int wpl = pixGetWpl(pix);
    const char *src = image.const_data();
    for (int y = 0; y < h; y++) {
        const uint32_t *row = reinterpret_cast<const uint32_t *>(src + static_cast<size_t>(y) * image.bytes_per_row());
        l_uint32 *out = dst + static_cast<size_t>(y) * wpl;
        // poppler: 0xAARRGGBB per native word; Leptonica: 0xRRGGBB00 (alpha ignored on white paper).
        for (int x = 0; x < w; x++) out[x] = (row[x] & 0x00FFFFFFu) << 8;
    }
    return pix;
}

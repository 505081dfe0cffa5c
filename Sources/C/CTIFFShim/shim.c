#include "CTIFFShim.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tiffio.h>

#include "reader.h"

/* ---- Errors ------------------------------------------------------------------------------------
   Every file gets per-handle handlers (TIFFOpenOptions, libtiff 4.5+) that keep the first error's
   text and drop warnings; returning 1 stops libtiff from also calling the process-wide handlers.
   The process-wide handlers are cleared once as well, for the few messages libtiff reports before a
   handle exists. */

static void record(webimage_tiff_errors *errors, const char *module, const char *fmt, va_list ap) {
    if (errors->set) return;
    int used = 0;
    if (module && *module) {
        used = snprintf(errors->text, sizeof errors->text, "%s: ", module);
        if (used < 0 || (size_t)used >= sizeof errors->text) used = 0;
    }
    vsnprintf(errors->text + used, sizeof errors->text - (size_t)used, fmt, ap);
    errors->set = 1;
}

void webimage_tiff_record_text(webimage_tiff_errors *errors, const char *text) {
    if (errors->set) return;
    snprintf(errors->text, sizeof errors->text, "%s", text);
    errors->set = 1;
}

static int on_error(TIFF *tif, void *user, const char *module, const char *fmt, va_list ap) {
    (void)tif;
    record((webimage_tiff_errors *)user, module, fmt, ap);
    return 1;
}

static int on_warning(TIFF *tif, void *user, const char *module, const char *fmt, va_list ap) {
    (void)tif, (void)user, (void)module, (void)fmt, (void)ap;
    return 1;
}

static pthread_once_t silence_once = PTHREAD_ONCE_INIT;
static void silence_global_handlers(void) {
    TIFFSetErrorHandler(NULL);
    TIFFSetWarningHandler(NULL);
}

static TIFFOpenOptions *make_options(webimage_tiff_errors *errors, uint64_t max_single_allocation) {
    pthread_once(&silence_once, silence_global_handlers);
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    if (!options) return NULL;
    if (max_single_allocation > 0) TIFFOpenOptionsSetMaxSingleMemAlloc(options, (tmsize_t)max_single_allocation);
    TIFFOpenOptionsSetErrorHandlerExtR(options, on_error, errors);
    TIFFOpenOptionsSetWarningHandlerExtR(options, on_warning, errors);
    return options;
}

/* The new position for a seek, or -1 when it would fall before the start or overflow. */
static int64_t seek_target(uint64_t position, uint64_t size, toff_t offset, int whence) {
    int64_t base;
    switch (whence) {
    case SEEK_SET: base = 0; break;
    case SEEK_CUR: base = (int64_t)position; break;
    case SEEK_END: base = (int64_t)size; break;
    default: return -1;
    }
    int64_t delta = (int64_t)offset; /* libtiff passes negative offsets as wrapped toff_t */
    if ((delta > 0 && base > INT64_MAX - delta) || base + delta < 0) return -1;
    return base + delta;
}

/* ---- Reading -------------------------------------------------------------------------------- */

static tmsize_t read_proc(thandle_t handle, void *buffer, tmsize_t count) {
    webimage_tiff *t = (webimage_tiff *)handle;
    if (count <= 0 || t->position >= t->size) return 0;
    uint64_t available = t->size - t->position;
    uint64_t n = (uint64_t)count < available ? (uint64_t)count : available;
    memcpy(buffer, t->data + t->position, (size_t)n);
    t->position += n;
    return (tmsize_t)n;
}

static tmsize_t read_only_write_proc(thandle_t handle, void *buffer, tmsize_t count) {
    (void)handle, (void)buffer, (void)count;
    return -1;
}

static toff_t read_seek_proc(thandle_t handle, toff_t offset, int whence) {
    webimage_tiff *t = (webimage_tiff *)handle;
    int64_t target = seek_target(t->position, t->size, offset, whence);
    if (target < 0) return (toff_t)-1;
    t->position = (uint64_t)target;
    return (toff_t)target;
}

static int close_proc(thandle_t handle) {
    (void)handle;
    return 0;
}

static toff_t read_size_proc(thandle_t handle) { return ((webimage_tiff *)handle)->size; }

/* The bytes are already in memory: libtiff reads strips straight from them (it copies first when it
   has to change them, e.g. to reverse the bit order). */
static int map_proc(thandle_t handle, void **base, toff_t *size) {
    webimage_tiff *t = (webimage_tiff *)handle;
    *base = (void *)t->data;
    *size = t->size;
    return 1;
}

static void unmap_proc(thandle_t handle, void *base, toff_t size) { (void)handle, (void)base, (void)size; }

webimage_tiff *webimage_tiff_open(const void *data, size_t size, uint64_t max_single_allocation, char *message,
                                  size_t message_size) {
    webimage_tiff *t = calloc(1, sizeof *t);
    if (!t) {
        if (message_size) snprintf(message, message_size, "out of memory");
        return NULL;
    }
    t->data = data;
    t->size = size;
    TIFFOpenOptions *options = make_options(&t->errors, max_single_allocation);
    if (options) {
        t->tif = TIFFClientOpenExt("memory", "r", (thandle_t)t, read_proc, read_only_write_proc, read_seek_proc,
                                   close_proc, read_size_proc, map_proc, unmap_proc, options);
        TIFFOpenOptionsFree(options);
    }
    if (!t->tif) {
        if (message_size)
            snprintf(message, message_size, "%s", t->errors.set ? t->errors.text : "not a readable TIFF file");
        free(t);
        return NULL;
    }
    return t;
}

void webimage_tiff_close(webimage_tiff *t) {
    if (!t) return;
    if (t->tif) TIFFClose(t->tif);
    free(t);
}

const char *webimage_tiff_message(const webimage_tiff *t) { return t->errors.text; }

int webimage_tiff_page_count(webimage_tiff *t, int limit) {
    tdir_t count = TIFFNumberOfDirectories(t->tif);
    if (count == 0) return 1; /* the first directory was read by open */
    return (int)count < limit ? (int)count : limit;
}

int webimage_tiff_alpha_kind(TIFF *tif, uint16_t photometric, uint16_t samples) {
    uint16_t extra_count = 0;
    uint16_t *extra = NULL;
    if (TIFFGetFieldDefaulted(tif, TIFFTAG_EXTRASAMPLES, &extra_count, &extra) && extra_count > 0 && extra) {
        if (extra[0] == EXTRASAMPLE_ASSOCALPHA || extra[0] == EXTRASAMPLE_UNASSALPHA) return extra[0];
        return 0;
    }
    /* libtiff's RGBA interface reads a fourth RGB sample without an ExtraSamples tag as alpha. */
    if (photometric == PHOTOMETRIC_RGB && samples >= 4) return EXTRASAMPLE_ASSOCALPHA;
    return 0;
}

int webimage_tiff_read_page_info(webimage_tiff *t, int index, webimage_tiff_page *page) {
    TIFF *tif = t->tif;
    if (index < 0 || (TIFFCurrentDirectory(tif) != (tdir_t)index && !TIFFSetDirectory(tif, (tdir_t)index))) {
        webimage_tiff_record_text(&t->errors, "cannot read the page's directory");
        return -1;
    }
    uint32_t width = 0, height = 0;
    uint16_t bits = 1, samples = 1, photometric = 0, orientation = ORIENTATION_TOPLEFT, compression = 1;
    if (!TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &width) || !TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &height)) {
        webimage_tiff_record_text(&t->errors, "the page has no ImageWidth or ImageLength");
        return -1;
    }
    TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &bits);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &samples);
    TIFFGetFieldDefaulted(tif, TIFFTAG_COMPRESSION, &compression);
    TIFFGetFieldDefaulted(tif, TIFFTAG_ORIENTATION, &orientation);
    if (!TIFFGetField(tif, TIFFTAG_PHOTOMETRIC, &photometric)) photometric = 0xFFFF;
    page->width = width;
    page->height = height;
    page->orientation = (orientation >= 1 && orientation <= 8) ? orientation : ORIENTATION_TOPLEFT;
    page->has_alpha = webimage_tiff_alpha_kind(tif, photometric, samples) != 0;
    page->bits_per_sample = bits;
    page->samples_per_pixel = samples;
    page->photometric = photometric;
    page->compression = compression;
    uint32_t icc_length = 0;
    void *icc = NULL;
    if (TIFFGetField(tif, TIFFTAG_ICCPROFILE, &icc_length, &icc) && icc != NULL) {
        page->icc = (const uint8_t *)icc;
        page->icc_length = icc_length;
    }
    return 0;
}

/* 8-bit contiguous RGB(A) or grey(+alpha) strips, copied as stored. Returns 1 when it handled the
   page (0 or -1 in *result), 0 when the page needs the RGBA interface. */
static int decode_direct(webimage_tiff *t, uint32_t width, uint32_t height, uint8_t *rgba, int *premultiplied,
                         int want_cmyk, int *cmyk, int *result) {
    TIFF *tif = t->tif;
    uint16_t bits = 1, samples = 1, photometric = 0, planar = PLANARCONFIG_CONTIG, compression = 1;
    TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &bits);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &samples);
    TIFFGetFieldDefaulted(tif, TIFFTAG_PLANARCONFIG, &planar);
    TIFFGetFieldDefaulted(tif, TIFFTAG_COMPRESSION, &compression);
    if (!TIFFGetField(tif, TIFFTAG_PHOTOMETRIC, &photometric)) return 0;
    if (TIFFIsTiled(tif) || bits != 8 || planar != PLANARCONFIG_CONTIG || compression == COMPRESSION_OJPEG ||
        compression == COMPRESSION_JPEG)
        return 0;
    int alpha = webimage_tiff_alpha_kind(tif, photometric, samples);
    int colour;
    uint16_t inkset = INKSET_CMYK;
    TIFFGetFieldDefaulted(tif, TIFFTAG_INKSET, &inkset);
    if (photometric == PHOTOMETRIC_RGB) colour = 3;
    else if (photometric == PHOTOMETRIC_MINISBLACK) colour = 1;
    else if (photometric == PHOTOMETRIC_SEPARATED && want_cmyk && inkset == INKSET_CMYK && samples == 4) colour = 4;
    else return 0;
    if (!(samples == colour || (samples == colour + 1 && alpha))) return 0;

    uint32_t rows_per_strip = height;
    TIFFGetFieldDefaulted(tif, TIFFTAG_ROWSPERSTRIP, &rows_per_strip);
    if (rows_per_strip == 0 || rows_per_strip > height) rows_per_strip = height;
    tmsize_t strip_size = TIFFStripSize(tif);
    uint64_t row_bytes = (uint64_t)width * samples;
    if (strip_size <= 0 || (uint64_t)strip_size < row_bytes * rows_per_strip) return 0;
    uint8_t *strip = _TIFFmalloc(strip_size);
    if (!strip) {
        webimage_tiff_record_text(&t->errors, "out of memory for a strip");
        *result = -1;
        return 1;
    }
    *result = 0;
    for (uint32_t row = 0; row < height; row += rows_per_strip) {
        uint32_t rows = height - row < rows_per_strip ? height - row : rows_per_strip;
        tmsize_t wanted = (tmsize_t)(row_bytes * rows);
        tmsize_t got = TIFFReadEncodedStrip(tif, TIFFComputeStrip(tif, row, 0), strip, wanted);
        if (got < wanted) {
            webimage_tiff_record_text(&t->errors, "a strip is truncated or corrupt");
            *result = -1;
            break;
        }
        for (uint32_t y = 0; y < rows; y++) {
            const uint8_t *in = strip + row_bytes * y;
            uint8_t *out = rgba + ((uint64_t)(row + y) * width) * 4;
            for (uint32_t x = 0; x < width; x++, in += samples, out += 4) {
                if (colour == 4) {
                    out[0] = in[0];
                    out[1] = in[1];
                    out[2] = in[2];
                    out[3] = in[3];
                    continue;
                } else if (colour == 3) {
                    out[0] = in[0];
                    out[1] = in[1];
                    out[2] = in[2];
                } else {
                    out[0] = out[1] = out[2] = in[0];
                }
                out[3] = samples > colour ? in[colour] : 255;
            }
        }
    }
    _TIFFfree(strip);
    *premultiplied = alpha == EXTRASAMPLE_ASSOCALPHA;
    *cmyk = colour == 4;
    return 1;
}

int webimage_tiff_decode_page(webimage_tiff *t, uint8_t *rgba, size_t rgba_size, int *premultiplied, int want_cmyk,
                              int *cmyk) {
    TIFF *tif = t->tif;
    uint32_t width = 0, height = 0;
    if (!TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &width) || !TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &height) ||
        (uint64_t)width * height * 4 != rgba_size) {
        webimage_tiff_record_text(&t->errors, "the page's size does not match the output buffer");
        return -1;
    }
    int result = 0;
    *cmyk = 0;
    if (decode_direct(t, width, height, rgba, premultiplied, want_cmyk, cmyk, &result)) return result;

    char reason[1024] = "";
    if (!TIFFRGBAImageOK(tif, reason)) {
        webimage_tiff_record_text(&t->errors, reason[0] ? reason : "unsupported TIFF layout");
        return -1;
    }
    TIFFRGBAImage image;
    if (!TIFFRGBAImageBegin(&image, tif, 1, reason)) {
        webimage_tiff_record_text(&t->errors, reason[0] ? reason : "cannot start decoding");
        return -1;
    }
    /* Ask for the file's own orientation: rows come out as stored, top to bottom (the Orientation
       tag is reported, not applied). */
    image.req_orientation = image.orientation;
    /* The raster is 32-bit ABGR words: R, G, B, A bytes in memory on little-endian machines. */
    int ok = TIFFRGBAImageGet(&image, (uint32_t *)(void *)rgba, width, height);
    *premultiplied = image.alpha != 0;
    TIFFRGBAImageEnd(&image);
    if (!ok) {
        webimage_tiff_record_text(&t->errors, "the image data is truncated or corrupt");
        return -1;
    }
    return 0;
}

/* ---- Writing -------------------------------------------------------------------------------- */

struct webimage_tiff_writer {
    webimage_tiff_errors errors; /* first: handlers get this struct's address */
    TIFF *tif;
    uint8_t *data;
    uint64_t size;
    uint64_t capacity;
    uint64_t position;
};

static tmsize_t writer_read_proc(thandle_t handle, void *buffer, tmsize_t count) {
    webimage_tiff_writer *w = (webimage_tiff_writer *)handle;
    if (count <= 0 || w->position >= w->size) return 0;
    uint64_t available = w->size - w->position;
    uint64_t n = (uint64_t)count < available ? (uint64_t)count : available;
    memcpy(buffer, w->data + w->position, (size_t)n);
    w->position += n;
    return (tmsize_t)n;
}

static tmsize_t writer_write_proc(thandle_t handle, void *buffer, tmsize_t count) {
    webimage_tiff_writer *w = (webimage_tiff_writer *)handle;
    if (count < 0) return -1;
    uint64_t end = w->position + (uint64_t)count;
    if (end > w->capacity) {
        uint64_t capacity = w->capacity ? w->capacity : 65536;
        while (capacity < end) capacity *= 2;
        uint8_t *grown = realloc(w->data, (size_t)capacity);
        if (!grown) return -1;
        /* Bytes between the old end and a seek beyond it read as zero. */
        memset(grown + w->capacity, 0, (size_t)(capacity - w->capacity));
        w->data = grown;
        w->capacity = capacity;
    }
    memcpy(w->data + w->position, buffer, (size_t)count);
    w->position = end;
    if (end > w->size) w->size = end;
    return count;
}

static toff_t writer_seek_proc(thandle_t handle, toff_t offset, int whence) {
    webimage_tiff_writer *w = (webimage_tiff_writer *)handle;
    int64_t target = seek_target(w->position, w->size, offset, whence);
    if (target < 0) return (toff_t)-1;
    w->position = (uint64_t)target;
    return (toff_t)target;
}

static toff_t writer_size_proc(thandle_t handle) { return ((webimage_tiff_writer *)handle)->size; }

static int writer_map_proc(thandle_t handle, void **base, toff_t *size) {
    (void)handle, (void)base, (void)size;
    return 0;
}

webimage_tiff_writer *webimage_tiff_writer_new(void) {
    webimage_tiff_writer *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    TIFFOpenOptions *options = make_options(&w->errors, 0);
    if (options) {
        w->tif = TIFFClientOpenExt("memory", "w", (thandle_t)w, writer_read_proc, writer_write_proc, writer_seek_proc,
                                   close_proc, writer_size_proc, writer_map_proc, unmap_proc, options);
        TIFFOpenOptionsFree(options);
    }
    if (!w->tif) {
        free(w->data);
        free(w);
        return NULL;
    }
    return w;
}

void webimage_tiff_writer_free(webimage_tiff_writer *w) {
    if (!w) return;
    if (w->tif) TIFFClose(w->tif);
    free(w->data);
    free(w);
}

const char *webimage_tiff_writer_message(const webimage_tiff_writer *w) { return w->errors.text; }

int webimage_tiff_writer_add_page(webimage_tiff_writer *w, const uint8_t *rgba, uint32_t width, uint32_t height,
                                  int keep_alpha, int zip_level, int page_index, int page_count, const uint8_t *icc,
                                  uint32_t icc_length) {
    TIFF *tif = w->tif;
    if (!tif) {
        webimage_tiff_record_text(&w->errors, "the file is already finished");
        return -1;
    }
    uint16_t samples = keep_alpha ? 4 : 3;
    int ok = TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, width) && TIFFSetField(tif, TIFFTAG_IMAGELENGTH, height) &&
             TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, 8) && TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, samples) &&
             TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_RGB) &&
             TIFFSetField(tif, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG) &&
             TIFFSetField(tif, TIFFTAG_ORIENTATION, ORIENTATION_TOPLEFT) &&
             TIFFSetField(tif, TIFFTAG_COMPRESSION, COMPRESSION_ADOBE_DEFLATE) &&
             TIFFSetField(tif, TIFFTAG_PREDICTOR, PREDICTOR_HORIZONTAL) &&
             TIFFSetField(tif, TIFFTAG_ZIPQUALITY, zip_level < 1 ? 1 : (zip_level > 9 ? 9 : zip_level));
    if (ok && keep_alpha) {
        uint16_t extra = EXTRASAMPLE_UNASSALPHA;
        ok = TIFFSetField(tif, TIFFTAG_EXTRASAMPLES, 1, &extra);
    }
    if (ok && page_count > 1) {
        ok = TIFFSetField(tif, TIFFTAG_SUBFILETYPE, FILETYPE_PAGE) &&
             TIFFSetField(tif, TIFFTAG_PAGENUMBER, (uint16_t)page_index, (uint16_t)page_count);
    }
    if (ok && icc != NULL && icc_length > 0) ok = TIFFSetField(tif, TIFFTAG_ICCPROFILE, icc_length, icc);
    if (ok) ok = TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, TIFFDefaultStripSize(tif, 0));
    if (!ok) {
        webimage_tiff_record_text(&w->errors, "cannot set the page's tags");
        return -1;
    }
    /* The predictor rewrites the row it is given, so each row is copied first. */
    uint8_t *row = malloc((size_t)width * samples);
    if (!row) {
        webimage_tiff_record_text(&w->errors, "out of memory");
        return -1;
    }
    int result = 0;
    for (uint32_t y = 0; y < height && result == 0; y++) {
        const uint8_t *in = rgba + (uint64_t)y * width * 4;
        if (keep_alpha) {
            memcpy(row, in, (size_t)width * 4);
        } else {
            for (uint32_t x = 0; x < width; x++) memcpy(row + (size_t)x * 3, in + (size_t)x * 4, 3);
        }
        if (TIFFWriteScanline(tif, row, y, 0) < 0) {
            webimage_tiff_record_text(&w->errors, "cannot write a row");
            result = -1;
        }
    }
    free(row);
    if (result == 0 && !TIFFWriteDirectory(tif)) {
        webimage_tiff_record_text(&w->errors, "cannot write the page's directory");
        result = -1;
    }
    return result;
}

int webimage_tiff_writer_finish(webimage_tiff_writer *w, const uint8_t **bytes, size_t *size) {
    if (w->tif) {
        TIFFClose(w->tif);
        w->tif = NULL;
    }
    if (w->errors.set || w->size == 0) {
        webimage_tiff_record_text(&w->errors, "nothing was written");
        return -1;
    }
    *bytes = w->data;
    *size = (size_t)w->size;
    return 0;
}

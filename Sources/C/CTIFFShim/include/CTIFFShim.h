#ifndef CTIFFSHIM_H
#define CTIFFSHIM_H
/* libtiff over memory: read and write callbacks on a byte buffer (TIFFClientOpenExt), and error and
   warning handlers that keep the first error's text instead of printing it. Swift cannot implement
   libtiff's variadic (va_list) handlers portably, so they live here. Nothing here prints or exits.
   Functions return 0 on success and -1 on failure; the failure's text is then in the object's
   message (webimage_tiff_message / webimage_tiff_writer_message). */

#include <stddef.h>
#include <stdint.h>

/* A TIFF file opened for reading from memory. The bytes must outlive it. Opaque to Swift. */
typedef struct webimage_tiff webimage_tiff;

/* What one page's directory says, read without decoding pixels. */
typedef struct {
    uint32_t width;
    uint32_t height;
    /* The Orientation tag (1-8; 1 when absent or out of range). */
    uint16_t orientation;
    /* An extra sample is alpha (associated or unassociated), or greyscale/RGB carry one more
       sample than their colour needs. */
    int has_alpha;
    uint16_t bits_per_sample;
    uint16_t samples_per_pixel;
    uint16_t photometric;
    uint16_t compression;
    /* The ICCProfile tag's bytes (NULL when absent), valid until another page is read. */
    const uint8_t *icc;
    uint32_t icc_length;
} webimage_tiff_page;

/* Opens `size` bytes at `data` and reads the first directory. `max_single_allocation` bounds every
   allocation libtiff makes for this file (0: libtiff's default). Returns NULL on failure with the
   reason in `message` (at most `message_size` bytes, NUL-terminated). */
webimage_tiff *webimage_tiff_open(const void *data, size_t size, uint64_t max_single_allocation,
                                  char *message, size_t message_size);
void webimage_tiff_close(webimage_tiff *tiff);
/* The first error libtiff reported on this file ("" when none). */
const char *webimage_tiff_message(const webimage_tiff *tiff);

/* How many pages (directories) the file has, counted by following the chain of directory offsets
   without reading the directories (libtiff detects loops), stopping at `limit`. */
int webimage_tiff_page_count(webimage_tiff *tiff, int limit);

/* Makes page `index` current and describes it. */
int webimage_tiff_read_page_info(webimage_tiff *tiff, int index, webimage_tiff_page *page);

/* Decodes the current page into `rgba` (width * height * 4 bytes, rows top to bottom as stored:
   the Orientation tag is not applied). 8-bit contiguous RGB, RGBA and greyscale strips are copied
   as stored (straight alpha stays straight); everything else goes through libtiff's RGBA interface
   (TIFFRGBAImage: palettes, bilevel, CMYK, YCbCr, 16-bit, tiles, JPEG, ...), which premultiplies
   alpha. `*premultiplied` says which the output is. With `want_cmyk`, an 8-bit contiguous CMYK page
   (InkSet CMYK, four samples, stripped) is copied as stored instead, C, M, Y, K in the four bytes,
   and `*cmyk` is set, for the caller's colour management. */
int webimage_tiff_decode_page(webimage_tiff *tiff, uint8_t *rgba, size_t rgba_size, int *premultiplied, int want_cmyk,
                              int *cmyk);

/* The rows of one band (a strip, or a row of tiles) of the current page when it is 16-bit unsigned
   RGB or grey (min-is-black), contiguous, without alpha or with unassociated alpha, not JPEG (the layouts
   webimage_tiff_read_band16 reads), else 0. */
int webimage_tiff_wide_band_rows(webimage_tiff *tiff);
/* Reads the band that starts at `first_row` (`rows` rows) of such a page into `rgba16`
   (width * rows * 4 samples, native byte order; alpha 0xFFFF when the page has none). */
int webimage_tiff_read_band16(webimage_tiff *tiff, uint32_t first_row, uint32_t rows, uint16_t *rgba16);

/* A TIFF file being written to memory. */
typedef struct webimage_tiff_writer webimage_tiff_writer;

webimage_tiff_writer *webimage_tiff_writer_new(void);
void webimage_tiff_writer_free(webimage_tiff_writer *writer);
const char *webimage_tiff_writer_message(const webimage_tiff_writer *writer);

/* Appends one page of straight RGBA (width * height * 4 bytes): RGB when `keep_alpha` is 0, else
   RGBA with unassociated alpha; deflate with the horizontal predictor at `zip_level` (1-9).
   `page_count` > 1 marks the page as one of a multi-page document. `icc` (NULL for none) is an
   ICC profile of `icc_length` bytes written as the page's ICCProfile tag. */
int webimage_tiff_writer_add_page(webimage_tiff_writer *writer, const uint8_t *rgba, uint32_t width,
                                  uint32_t height, int keep_alpha, int zip_level, int page_index,
                                  int page_count, const uint8_t *icc, uint32_t icc_length);

/* Finishes the file; `*bytes` and `*size` stay valid until the writer is freed. */
int webimage_tiff_writer_finish(webimage_tiff_writer *writer, const uint8_t **bytes, size_t *size);

#endif

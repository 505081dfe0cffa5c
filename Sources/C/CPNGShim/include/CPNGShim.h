#ifndef CPNGSHIM_H
#define CPNGSHIM_H
/* The setjmp/longjmp boundary for libpng: Swift cannot call setjmp, so every libpng call that may
   longjmp on error runs inside a function of this target. Each function that can fail returns 0 on
   success and -1 on failure, with libpng's message available from the object it was called on. */
#include <stddef.h>
#include <stdint.h>

/* ---- Decoding ---- */

/** What IHDR (and tRNS) say about an image. */
typedef struct webimage_png_header {
    uint32_t width;
    uint32_t height;
    int bit_depth;
    int color_type;
    int interlaced;
    int has_trns;
} webimage_png_header;

/** Inflates the zlib stream of `size` bytes at `data` (an iCCP chunk's profile) into `out`, at most
    `capacity` bytes. Returns the inflated length, -1 when the stream is corrupt or incomplete,
    -2 when it inflates to more than `capacity` bytes. */
long webimage_png_inflate(const uint8_t *data, size_t size, uint8_t *out, size_t capacity);

/** Deflates `size` bytes at `data` into a zlib stream in `out` (at most `capacity` bytes, which
    compressBound(size) always covers). Returns the stream's length, or -1. */
long webimage_png_deflate(const uint8_t *data, size_t size, uint8_t *out, size_t capacity);
/** The most webimage_png_deflate() can write for `size` bytes. */
size_t webimage_png_deflate_bound(size_t size);

/** A libpng reader over a memory buffer that it does not own. */
typedef struct webimage_png_decoder webimage_png_decoder;

/** Creates a reader over `size` bytes at `data` (which must outlive the reader); NULL when out of memory.
    `max_pixels` bounds width × height (and each side, through libpng's user limits) before libpng
    allocates anything in proportion to the image; 0 means the PNG maximum (header probes). */
webimage_png_decoder *webimage_png_decoder_create(const uint8_t *data, size_t size, uint64_t max_pixels);
/** Reads the chunks up to the first IDAT and fills `header`; nothing is allocated for rows yet.
    Fails (with webimage_png_decoder_too_large() set) when the size exceeds `max_pixels`. */
int webimage_png_decoder_read_info(webimage_png_decoder *decoder, webimage_png_header *header);
/** After read_info: sets up RGBA8 straight-alpha output (this allocates libpng's row buffers); with
    `keep_16`, a 16-bit image comes out as RGBA16 in the machine's byte order (8 bytes a pixel). */
int webimage_png_decoder_prepare_rgba(webimage_png_decoder *decoder, int keep_16);
/** 1 when the last failure was the image's size exceeding the limits, 0 otherwise. */
int webimage_png_decoder_too_large(const webimage_png_decoder *decoder);
/** Decodes every row (every Adam7 pass) into `pixels`, `height` rows of `stride` >= width * 4 bytes. */
int webimage_png_decoder_read_rgba(webimage_png_decoder *decoder, uint8_t *pixels, size_t stride);
/** Decodes the next `rows` rows of a non-interlaced image into `pixels`, `stride` bytes apart
    (-1 for an interlaced one, whose rows come in several passes). */
int webimage_png_decoder_read_rows(webimage_png_decoder *decoder, uint8_t *pixels, size_t stride, uint32_t rows);
/** The number of passes over the rows prepare_rgba set up (7 for Adam7, else 1). */
int webimage_png_decoder_passes(const webimage_png_decoder *decoder);
/** libpng's last error message (never NULL). */
const char *webimage_png_decoder_message(const webimage_png_decoder *decoder);
/** Frees the reader. */
void webimage_png_decoder_destroy(webimage_png_decoder *decoder);

/* ---- Progressive decoding (png_process_data) ---- */

/** A progressive libpng reader: bytes are pushed as they arrive and decoded into an RGBA8
    straight-alpha bitmap the reader owns (transparent black until rows arrive). */
typedef struct webimage_png_stream webimage_png_stream;

/** What the reader has got through so far. */
typedef struct webimage_png_stream_progress {
    /** IHDR has been read (header valid) and the bitmap allocated. */
    int has_header;
    webimage_png_header header;
    /** Rows of the current pass decoded so far (non-interlaced: rows of the image). */
    uint32_t rows;
    /** Adam7 passes complete (0...7; non-interlaced: 1 once every row is in). */
    int completed_passes;
    /** The image data has ended (IEND or the end of IDAT). */
    int complete;
} webimage_png_stream_progress;

/** A new reader; `max_pixels` (> 0) is checked against IHDR before the bitmap is allocated. NULL when
    out of memory. */
webimage_png_stream *webimage_png_stream_create(uint64_t max_pixels);
/** Pushes the next bytes: 0, or -1 on failure (the message and too_large say why). */
int webimage_png_stream_feed(webimage_png_stream *stream, const uint8_t *data, size_t size,
                             webimage_png_stream_progress *progress);
/** The bitmap: height rows of width * 4 bytes (NULL before the header). */
const uint8_t *webimage_png_stream_pixels(const webimage_png_stream *stream);
/** 1 when the failure was the size exceeding the limit. */
int webimage_png_stream_too_large(const webimage_png_stream *stream);
/** libpng's last error message (never NULL). */
const char *webimage_png_stream_message(const webimage_png_stream *stream);
/** Frees the reader and its bitmap. */
void webimage_png_stream_destroy(webimage_png_stream *stream);

/* ---- Encoding ---- */

/** What to write: IHDR fields, optional PLTE/tRNS, and how rows are laid out. */
typedef struct webimage_png_write_params {
    uint32_t width;
    uint32_t height;
    int bit_depth;
    int color_type;
    int interlaced;
    /** zlib level 0-9. */
    int compression_level;
    /** Rows carry one extra byte per pixel after the samples, to be dropped (RGBA input for RGB output). */
    int strip_filler;
    /** PLTE as RGB triples (palette_count entries), or NULL. */
    const uint8_t *palette;
    int palette_count;
    /** tRNS alpha per palette entry (trans_count entries), or NULL. */
    const uint8_t *trans_alpha;
    int trans_count;
    /** tRNS colour key for grey (gray) or RGB (red, green, blue) images, used when has_trans_color. */
    int has_trans_color;
    uint16_t trans_gray, trans_red, trans_green, trans_blue;
} webimage_png_write_params;

/** Growing output of the writer; free `data` with webimage_png_output_free. */
typedef struct webimage_png_output {
    uint8_t *data;
    size_t size;
    size_t capacity;
    int failed;
    char message[200];
} webimage_png_output;

/** Writes a whole PNG of `rows` (height rows of `stride` bytes in libpng's sample layout, 16-bit big-endian). */
int webimage_png_write(const webimage_png_write_params *params, const uint8_t *rows, size_t stride,
                       webimage_png_output *output);
/** Frees the output's bytes. */
void webimage_png_output_free(webimage_png_output *output);

#endif

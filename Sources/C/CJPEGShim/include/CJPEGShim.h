#ifndef CJPEGSHIM_H
#define CJPEGSHIM_H
/* The setjmp/longjmp boundary for libjpeg: Swift cannot call setjmp, so every libjpeg call that may
   longjmp on error runs inside a function of this target. Each function returns 0 on success and -1
   on failure; the failure's text is then in webimage_jpeg_decoder_message() (or the encoder's
   message buffer). Nothing here prints or exits. */

#include <stddef.h>

/* One decompression in progress: libjpeg's decompress object, its error manager and the state the
   shim keeps. Opaque to Swift. */
typedef struct webimage_jpeg_decoder webimage_jpeg_decoder;

/* The colour model of the stored components (a subset of libjpeg's J_COLOR_SPACE). */
typedef enum {
    WEBIMAGE_JPEG_COLOR_UNKNOWN = 0,
    WEBIMAGE_JPEG_COLOR_GRAY = 1,
    WEBIMAGE_JPEG_COLOR_RGB = 2,
    WEBIMAGE_JPEG_COLOR_YCBCR = 3,
    WEBIMAGE_JPEG_COLOR_CMYK = 4,
    WEBIMAGE_JPEG_COLOR_YCCK = 5
} webimage_jpeg_color;

/* What the frame header says, read by webimage_jpeg_read_header(). */
typedef struct {
    unsigned int width;
    unsigned int height;
    int components;
    webimage_jpeg_color color;
    /* An Adobe APP14 marker was seen: CMYK/YCCK samples are stored inverted (Adobe convention). */
    int saw_adobe_marker;
    int progressive;
    int precision;
    /* The payload of the first APP1 segment that starts with "Exif\0\0" (or NULL), valid until the
       decoder is destroyed. */
    const unsigned char *exif;
    size_t exif_length;
} webimage_jpeg_header;

/* How the decoded samples are laid out: 4 bytes per pixel either way. */
typedef enum {
    /* R, G, B, 255 (from greyscale, RGB or YCbCr). */
    WEBIMAGE_JPEG_OUTPUT_RGBA = 0,
    /* C, M, Y, K as stored (from CMYK or YCCK; YCCK is converted to CMYK by libjpeg). */
    WEBIMAGE_JPEG_OUTPUT_CMYK = 1
} webimage_jpeg_output;

/* A new decoder, or NULL when out of memory. `max_memory` bounds libjpeg's allocations (0: no bound);
   `max_scans` bounds the number of progressive scans (0: no bound), which stops files made of
   thousands of tiny scans from taking unbounded time. */
webimage_jpeg_decoder *webimage_jpeg_decoder_create(long max_memory, int max_scans);
/* Frees the decoder and everything libjpeg allocated for it. */
void webimage_jpeg_decoder_destroy(webimage_jpeg_decoder *decoder);
/* The message of the last failure (empty when none). */
const char *webimage_jpeg_decoder_message(const webimage_jpeg_decoder *decoder);
/* What kind of failure the last one was. */
typedef enum {
    /* The data is corrupt or truncated. */
    WEBIMAGE_JPEG_FAILURE_CORRUPT = 0,
    /* Well-formed, but a process or precision this libjpeg build cannot decode (lossless, 12-bit). */
    WEBIMAGE_JPEG_FAILURE_UNSUPPORTED = 1,
    /* Out of memory, over the memory bound, or over libjpeg's dimension limit. */
    WEBIMAGE_JPEG_FAILURE_TOO_LARGE = 2
} webimage_jpeg_failure;

webimage_jpeg_failure webimage_jpeg_decoder_failure(const webimage_jpeg_decoder *decoder);

/* Reads the markers up to the first scan from `data` (which must stay alive and unchanged until
   the decoder is destroyed) and fills `header`. */
int webimage_jpeg_read_header(
    webimage_jpeg_decoder *decoder, const unsigned char *data, size_t size, webimage_jpeg_header *header);

/* The output size for a DCT-domain scale of `scale_num`/8 (1...16), without decoding. */
int webimage_jpeg_scaled_size(
    webimage_jpeg_decoder *decoder, unsigned int scale_num, unsigned int *width, unsigned int *height);

/* Starts decompression at `scale_num`/8 with islow IDCT and fancy upsampling (libjpeg's defaults),
   and reports the output size. For progressive files this reads every scan. */
int webimage_jpeg_start(
    webimage_jpeg_decoder *decoder, unsigned int scale_num, webimage_jpeg_output output, unsigned int *width,
    unsigned int *height);

/* Decodes every remaining scanline into `pixels` (`height` rows of `stride` bytes, each row at least
   output width * 4 bytes). */
int webimage_jpeg_read_pixels(webimage_jpeg_decoder *decoder, unsigned char *pixels, size_t stride, size_t height);

/* Reads the markers after the last scan up to EOI, so that corruption there is reported too. */
int webimage_jpeg_finish(webimage_jpeg_decoder *decoder);

/* Encodes `height` rows of `stride` bytes of R, G, B, X pixels (X ignored) as a baseline YCbCr
   JPEG with 4:2:0 subsampling and optimised Huffman tables. On success `*output` is a malloc'd
   buffer of `*output_size` bytes that the caller frees with webimage_jpeg_free(). On failure the
   message is written to `message` (at most `message_capacity` bytes, NUL-terminated). */
int webimage_jpeg_encode_rgbx(
    const unsigned char *pixels, unsigned int width, unsigned int height, size_t stride, int quality,
    unsigned char **output, size_t *output_size, char *message, size_t message_capacity);

/* Frees a buffer returned by webimage_jpeg_encode_rgbx(). */
void webimage_jpeg_free(void *buffer);

/* 1 when the libjpeg-turbo built against decodes lossless (SOF3) JPEG: version 3.0 and later. */
int webimage_jpeg_supports_lossless(void);

#endif

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

/* After a header was read: the payload of the `index`th APP2 segment (0-based, file order; ICC
   profiles are carried in APP2 segments starting "ICC_PROFILE\0"), valid until the decoder is
   destroyed. Returns 1, or 0 when there are not that many. */
int webimage_jpeg_app2_segment(
    const webimage_jpeg_decoder *decoder, int index, const unsigned char **data, size_t *length);

/* The output size for a DCT-domain scale of `scale_num`/8 (1...16), without decoding. */
int webimage_jpeg_scaled_size(
    webimage_jpeg_decoder *decoder, unsigned int scale_num, unsigned int *width, unsigned int *height);

/* After webimage_jpeg_scaled_size(): each component's identifier (the byte scans name it by) and the
   size, in pixels, libjpeg's inverse DCT makes of each of its 8x8 blocks at that scale (1, 2, 4 or
   8; libjpeg scales subsampled chroma less and upsamples it less). A component at 1 uses only the
   DC coefficient of each block. Returns the number of components (at most `capacity` are written). */
int webimage_jpeg_component_scales(
    const webimage_jpeg_decoder *decoder, int *identifiers, int *block_sizes, int capacity);

/* Turns libjpeg's block smoothing of progressive files (estimating coefficients that have not
   arrived yet) on or off for the next webimage_jpeg_start(); it is on by default. */
void webimage_jpeg_set_block_smoothing(webimage_jpeg_decoder *decoder, int enabled);

/* Tells the next webimage_jpeg_start() that the stream carries no AC scan for the components
   `identifiers` names (JPEGScanFilter left them out). Those whose blocks become one pixel at the
   scale set, in a Huffman-coded progressive file decoded with block smoothing off, get an array
   that stores each block's DC coefficient alone (see dc_store.c): the same coefficients for
   libjpeg, in a 64th of the memory. */
void webimage_jpeg_store_dc_only(webimage_jpeg_decoder *decoder, const int *identifiers, int count);

/* How many components the last webimage_jpeg_start() gave a DC-only array. */
int webimage_jpeg_dc_only_arrays(const webimage_jpeg_decoder *decoder);

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

/* ---- Incremental decoding ----------------------------------------------------------------------
   A decoder made with webimage_jpeg_decoder_create_incremental() reads from a suspending source:
   bytes are appended as they arrive (copied; only the bytes libjpeg has not consumed yet are kept),
   and every call below returns 1 when it got where it was going, 0 when it ran out of input
   ("suspended": append more and call it again) and -1 on failure. Files with several scans
   (progressive) are decoded in buffered-image mode: each completed scan can be shown. Single-scan
   files are decoded row by row into a buffer the caller keeps. */

/* A new incremental decoder, or NULL when out of memory (bounds as webimage_jpeg_decoder_create). */
webimage_jpeg_decoder *webimage_jpeg_decoder_create_incremental(long max_memory, int max_scans);

/* Appends the next bytes of the file; -1 when out of memory. */
int webimage_jpeg_stream_append(webimage_jpeg_decoder *decoder, const unsigned char *data, size_t size);

/* Reads the markers up to the first scan: 1 and `header` filled, 0 suspended, -1 failure. The EXIF
   payload stays valid until the decoder is destroyed. */
int webimage_jpeg_stream_read_header(webimage_jpeg_decoder *decoder, webimage_jpeg_header *header);

/* Starts decompression at `scale_num`/8 (buffered-image mode for multi-scan files): 1 started (and
   the output size and whether the file has several scans reported), 0 suspended, -1 failure. */
int webimage_jpeg_stream_start(
    webimage_jpeg_decoder *decoder, unsigned int scale_num, webimage_jpeg_output output, unsigned int *width,
    unsigned int *height, int *multi_scan);

/* What the decoder has got through so far. */
typedef struct {
    /* The file has several scans: previews come per completed scan. */
    int multi_scan;
    /* Multi-scan files: the number of scans whose data is all in. */
    int completed_scans;
    /* Single-scan files: the rows decoded into the caller's buffer so far. */
    unsigned int rows;
    /* Every scan is in and the end of the image (EOI) has been read. */
    int complete;
} webimage_jpeg_stream_progress;

/* Consumes the input appended so far. Single-scan files decode their rows straight into `pixels`
   (`height` rows of `stride` bytes, the same buffer on every call); multi-scan files only absorb the
   coefficients (pixels may be NULL). 0 when the input ran out or the image is complete, -1 on
   failure. */
int webimage_jpeg_stream_consume(
    webimage_jpeg_decoder *decoder, unsigned char *pixels, size_t stride, size_t height,
    webimage_jpeg_stream_progress *progress);

/* Multi-scan files: renders the image as of scan `scan` (the last completed one; every scan once
   complete) into `pixels`, every row. Never waits for input: 1 rendered, -1 on failure. */
int webimage_jpeg_stream_render(
    webimage_jpeg_decoder *decoder, int scan, unsigned char *pixels, size_t stride, size_t height);

/* Encodes `height` rows of `stride` bytes of R, G, B, X pixels (X ignored) as a YCbCr JPEG with
   4:2:0 subsampling and optimised Huffman tables: baseline, or progressive with libjpeg's standard
   scan script (jpeg_simple_progression) when `progressive` is non-zero. On success `*output` is a malloc'd
   buffer of `*output_size` bytes that the caller frees with webimage_jpeg_free(). On failure the
   message is written to `message` (at most `message_capacity` bytes, NUL-terminated). */
int webimage_jpeg_encode_rgbx(
    const unsigned char *pixels, unsigned int width, unsigned int height, size_t stride, int quality,
    int progressive, unsigned char **output, size_t *output_size, char *message, size_t message_capacity);

/* Frees a buffer returned by webimage_jpeg_encode_rgbx(). */
void webimage_jpeg_free(void *buffer);

/* 1 when the libjpeg-turbo built against decodes lossless (SOF3) JPEG: version 3.0 and later. */
int webimage_jpeg_supports_lossless(void);

#endif

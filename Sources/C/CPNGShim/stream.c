#include "CPNGShim.h"
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"

/* libpng's progressive reader: png_process_data decodes what the bytes pushed complete and calls
   back with the header, each row (of each Adam7 pass) and the end; it keeps its own state between
   pushes, so each push costs work in proportion to its bytes. Rows are combined into a bitmap kept
   here (png_progressive_combine_row fills the pixels a pass stands for, so an early pass already
   shows the whole picture, blocky). */

struct webimage_png_stream {
    png_structp png;
    png_infop info;
    uint64_t max_pixels;
    uint8_t *pixels;
    size_t stride;
    webimage_png_stream_progress progress;
    int passes;
    int too_large;
    char message[200];
};

static void stream_error(png_structp png, png_const_charp message) {
    webimage_png_stream *stream = (webimage_png_stream *)png_get_error_ptr(png);
    if (stream != NULL) {
        strncpy(stream->message, message != NULL ? message : "libpng error", sizeof stream->message - 1);
        stream->message[sizeof stream->message - 1] = '\0';
    }
    png_longjmp(png, 1);
}

static void stream_warning(png_structp png, png_const_charp message) {
    webimage_png_stream *stream = (webimage_png_stream *)png_get_error_ptr(png);
    if (stream != NULL && message != NULL && strstr(message, "exceeds user limit") != NULL) stream->too_large = 1;
}

static void stream_info(png_structp png, png_infop info) {
    webimage_png_stream *stream = (webimage_png_stream *)png_get_progressive_ptr(png);
    png_uint_32 width = 0, height = 0;
    int bit_depth = 0, color_type = 0, interlace = 0;
    png_get_IHDR(png, info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);
    /* The limit before anything is allocated in proportion to the image. */
    if (stream->max_pixels > 0 && (uint64_t)width * (uint64_t)height > stream->max_pixels) {
        stream->too_large = 1;
        png_error(png, "image is over the pixel limit");
    }
    stream->passes = webimage_png_set_rgba_transforms(png, info, 0);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * 4) png_error(png, "unexpected decoded row size");
    stream->stride = (size_t)width * 4;
    stream->pixels = calloc((size_t)height, stream->stride);
    if (stream->pixels == NULL) png_error(png, "out of memory");
    webimage_png_header *header = &stream->progress.header;
    header->width = width;
    header->height = height;
    header->bit_depth = bit_depth;
    header->color_type = color_type;
    header->interlaced = interlace != PNG_INTERLACE_NONE;
    header->has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    stream->progress.has_header = 1;
}

static void stream_row(png_structp png, png_bytep row, png_uint_32 row_number, int pass) {
    webimage_png_stream *stream = (webimage_png_stream *)png_get_progressive_ptr(png);
    if (row_number >= stream->progress.header.height) return;
    /* A row of a later pass: every earlier pass is complete. */
    if (pass > stream->progress.completed_passes && stream->passes > 1) stream->progress.completed_passes = pass;
    if (row != NULL) png_progressive_combine_row(png, stream->pixels + (size_t)row_number * stream->stride, row);
    stream->progress.rows = row_number + 1;
}

static void stream_end(png_structp png, png_infop info) {
    (void)info;
    webimage_png_stream *stream = (webimage_png_stream *)png_get_progressive_ptr(png);
    stream->progress.complete = 1;
    stream->progress.completed_passes = stream->passes;
}

static int stream_setup(webimage_png_stream *stream) {
    if (setjmp(png_jmpbuf(stream->png))) return -1;
    webimage_png_configure_reader(stream->png, stream->max_pixels);
    png_set_progressive_read_fn(stream->png, stream, stream_info, stream_row, stream_end);
    return 0;
}

webimage_png_stream *webimage_png_stream_create(uint64_t max_pixels) {
    webimage_png_stream *stream = calloc(1, sizeof *stream);
    if (stream == NULL) return NULL;
    stream->max_pixels = max_pixels;
    stream->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, stream, stream_error, stream_warning);
    if (stream->png != NULL) stream->info = png_create_info_struct(stream->png);
    if (stream->png == NULL || stream->info == NULL || stream_setup(stream) != 0) {
        webimage_png_stream_destroy(stream);
        return NULL;
    }
    return stream;
}

int webimage_png_stream_feed(webimage_png_stream *stream, const uint8_t *data, size_t size,
                             webimage_png_stream_progress *progress) {
    if (setjmp(png_jmpbuf(stream->png))) return -1;
    /* Bytes after the end of the image (trailing chunks, junk) are ignored. */
    if (!stream->progress.complete && size > 0) png_process_data(stream->png, stream->info, (png_bytep)data, size);
    *progress = stream->progress;
    return 0;
}

const uint8_t *webimage_png_stream_pixels(const webimage_png_stream *stream) { return stream->pixels; }

int webimage_png_stream_too_large(const webimage_png_stream *stream) { return stream->too_large; }

const char *webimage_png_stream_message(const webimage_png_stream *stream) {
    return stream->message[0] != '\0' ? stream->message : "libpng error";
}

void webimage_png_stream_destroy(webimage_png_stream *stream) {
    if (stream == NULL) return;
    if (stream->png != NULL) png_destroy_read_struct(&stream->png, stream->info != NULL ? &stream->info : NULL, NULL);
    free(stream->pixels);
    free(stream);
}

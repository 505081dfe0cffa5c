#include "CPNGShim.h"
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader.h"

/* Chunks libpng would otherwise decompress or keep in memory that we never use: text, ICC profiles,
   suggested palettes. Skipping them bounds memory on hostile files (compressed text bombs). */
static const png_byte ignored_chunks[] = {
    'i', 'C', 'C', 'P', '\0', 'i', 'T', 'X', 't', '\0', 't', 'E', 'X', 't', '\0',
    'z', 'T', 'X', 't', '\0', 's', 'P', 'L', 'T', '\0', 'e', 'X', 'I', 'f', '\0',
};

static void copy_message(char *destination, size_t capacity, const char *message) {
    if (message == NULL) message = "libpng error";
    strncpy(destination, message, capacity - 1);
    destination[capacity - 1] = '\0';
}

/* ---- Decoding ---- */

struct webimage_png_decoder {
    png_structp png;
    png_infop info;
    const uint8_t *data;
    size_t size;
    size_t offset;
    uint32_t height;
    int passes;
    uint64_t max_pixels;
    int too_large;
    char message[200];
};

static void decoder_error(png_structp png, png_const_charp message) {
    webimage_png_decoder *decoder = (webimage_png_decoder *)png_get_error_ptr(png);
    if (decoder != NULL) {
        copy_message(decoder->message, sizeof decoder->message, message);
    }
    png_longjmp(png, 1);
}

static void decoder_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

/* libpng refuses an IHDR over the user limits set in read_info with a warning naming the limit,
   then the error "Invalid IHDR data": the warning tells the caller that the size was the reason. */
static void reader_warning(png_structp png, png_const_charp message) {
    webimage_png_decoder *decoder = (webimage_png_decoder *)png_get_error_ptr(png);
    if (decoder != NULL && message != NULL && strstr(message, "exceeds user limit") != NULL) decoder->too_large = 1;
}

static void decoder_read(png_structp png, png_bytep out, size_t length) {
    webimage_png_decoder *decoder = (webimage_png_decoder *)png_get_io_ptr(png);
    if (decoder == NULL || length > decoder->size - decoder->offset) {
        png_error(png, "unexpected end of PNG data (file truncated)");
    }
    memcpy(out, decoder->data + decoder->offset, length);
    decoder->offset += length;
}

void webimage_png_configure_reader(png_structp png, uint64_t max_pixels) {
    png_uint_32 side_max = PNG_UINT_31_MAX;
    if (max_pixels > 0 && max_pixels < (uint64_t)PNG_UINT_31_MAX) {
        side_max = (png_uint_32)max_pixels;
    }
    png_set_user_limits(png, side_max, side_max);
    png_set_chunk_cache_max(png, 1000);
    png_set_chunk_malloc_max(png, 8 * 1024 * 1024);
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, ignored_chunks,
                                (int)(sizeof ignored_chunks / 5));
    /* A CRC error in an ancillary chunk rejects the file as in a critical one (libpng's default
       would warn and skip the chunk): the bytes are damaged, and the reference decoder agrees. */
    png_set_crc_action(png, PNG_CRC_DEFAULT, PNG_CRC_ERROR_QUIT);

}

webimage_png_decoder *webimage_png_decoder_create(const uint8_t *data, size_t size, uint64_t max_pixels) {
    webimage_png_decoder *decoder = (webimage_png_decoder *)calloc(1, sizeof(webimage_png_decoder));
    if (decoder == NULL) return NULL;
    decoder->data = data;
    decoder->size = size;
    decoder->max_pixels = max_pixels;
    decoder->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, decoder, decoder_error, reader_warning);
    if (decoder->png == NULL) {
        free(decoder);
        return NULL;
    }
    decoder->info = png_create_info_struct(decoder->png);
    if (decoder->info == NULL) {
        png_destroy_read_struct(&decoder->png, NULL, NULL);
        free(decoder);
        return NULL;
    }
    png_set_read_fn(decoder->png, decoder, decoder_read);
    return decoder;
}

int webimage_png_decoder_read_info(webimage_png_decoder *decoder, webimage_png_header *header) {
    png_structp png = decoder->png;
    png_infop info = decoder->info;
    if (setjmp(png_jmpbuf(png))) return -1;

    /* libpng refuses a side over the user limit while reading IHDR, before anything is sized by
       it; the product is checked below, still before png_read_update_info allocates the row
       buffers (a 700000000x1 IHDR would otherwise cost gigabytes there). libpng's default cap of
       1,000,000 px per side would refuse legitimate strips, so a side may be as long as the whole
       pixel budget. Ancillary chunk memory stays bounded: at most 1000 chunks cached, at most
       8 MB per chunk. */
    webimage_png_configure_reader(png, decoder->max_pixels);
    png_read_info(png, info);
    png_uint_32 width = 0, height = 0;
    int bit_depth = 0, color_type = 0, interlace = 0;
    png_get_IHDR(png, info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);

    header->width = width;
    header->height = height;
    header->bit_depth = bit_depth;
    header->color_type = color_type;
    header->interlaced = interlace != PNG_INTERLACE_NONE;
    header->has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;

    if (decoder->max_pixels > 0 && (uint64_t)width * (uint64_t)height > decoder->max_pixels) {
        snprintf(decoder->message, sizeof decoder->message, "image is %ux%u pixels, over the limit of %llu pixels",
                 (unsigned)width, (unsigned)height, (unsigned long long)decoder->max_pixels);
        decoder->too_large = 1;
        return -1;
    }
    decoder->height = height;
    return 0;
}

int webimage_png_set_rgba_transforms(png_structp png, png_infop info, int keep_16) {
    png_uint_32 width = 0, height = 0;
    int bit_depth = 0, color_type = 0, interlace = 0;
    png_get_IHDR(png, info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);
    int has_trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    /* Every colour type and depth to 8-bit RGBA, straight alpha, no gamma or colour management;
       with `keep_16`, 16-bit images to 16-bit RGBA in the machine's byte order instead. */
    int wide = keep_16 && bit_depth == 16;
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (has_trns) png_set_tRNS_to_alpha(png);
    if (bit_depth == 16 && !wide) png_set_strip_16(png);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (wide) png_set_swap(png);
#endif
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    if ((color_type & PNG_COLOR_MASK_ALPHA) == 0 && !has_trns) png_set_add_alpha(png, wide ? 0xFFFF : 0xFF, PNG_FILLER_AFTER);
    return png_set_interlace_handling(png);
}

int webimage_png_decoder_prepare_rgba(webimage_png_decoder *decoder, int keep_16) {
    png_structp png = decoder->png;
    png_infop info = decoder->info;
    if (setjmp(png_jmpbuf(png))) return -1;
    png_uint_32 width = 0, height = 0;
    int bit_depth = 0, color_type = 0, interlace = 0;
    png_get_IHDR(png, info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);
    decoder->passes = webimage_png_set_rgba_transforms(png, info, keep_16);
    png_read_update_info(png, info);
    size_t bytes_per_pixel = keep_16 && bit_depth == 16 ? 8 : 4;
    if (png_get_rowbytes(png, info) != (size_t)width * bytes_per_pixel) png_error(png, "unexpected decoded row size");
    return 0;
}

int webimage_png_decoder_read_rgba(webimage_png_decoder *decoder, uint8_t *pixels, size_t stride) {
    png_structp png = decoder->png;
    if (setjmp(png_jmpbuf(png))) return -1;
    for (int pass = 0; pass < decoder->passes; pass++) {
        for (uint32_t y = 0; y < decoder->height; y++) {
            png_read_row(png, pixels + (size_t)y * stride, NULL);
        }
    }
    return 0;
}

int webimage_png_decoder_read_rows(webimage_png_decoder *decoder, uint8_t *pixels, size_t stride, uint32_t rows) {
    png_structp png = decoder->png;
    if (decoder->passes != 1) return -1;
    if (setjmp(png_jmpbuf(png))) return -1;
    for (uint32_t y = 0; y < rows; y++) png_read_row(png, pixels + (size_t)y * stride, NULL);
    return 0;
}

int webimage_png_decoder_passes(const webimage_png_decoder *decoder) { return decoder->passes; }

int webimage_png_decoder_too_large(const webimage_png_decoder *decoder) { return decoder->too_large; }

const char *webimage_png_decoder_message(const webimage_png_decoder *decoder) {
    return decoder->message[0] != '\0' ? decoder->message : "libpng error";
}

void webimage_png_decoder_destroy(webimage_png_decoder *decoder) {
    if (decoder == NULL) return;
    png_destroy_read_struct(&decoder->png, &decoder->info, NULL);
    free(decoder);
}

/* ---- Encoding ---- */

static void encoder_error(png_structp png, png_const_charp message) {
    webimage_png_output *output = (webimage_png_output *)png_get_error_ptr(png);
    if (output != NULL) copy_message(output->message, sizeof output->message, message);
    png_longjmp(png, 1);
}

static void encoder_write(png_structp png, png_bytep data, size_t length) {
    webimage_png_output *output = (webimage_png_output *)png_get_io_ptr(png);
    if (length > SIZE_MAX / 2 - output->size) png_error(png, "PNG output too large");
    size_t needed = output->size + length;
    if (needed > output->capacity) {
        size_t capacity = output->capacity < 4096 ? 4096 : output->capacity;
        while (capacity < needed) capacity *= 2;
        uint8_t *grown = (uint8_t *)realloc(output->data, capacity);
        if (grown == NULL) png_error(png, "out of memory while writing PNG");
        output->data = grown;
        output->capacity = capacity;
    }
    memcpy(output->data + output->size, data, length);
    output->size = needed;
}

static void encoder_flush(png_structp png) { (void)png; }

int webimage_png_write(const webimage_png_write_params *params, const uint8_t *rows, size_t stride,
                       webimage_png_output *output) {
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, output, encoder_error, decoder_warning);
    if (png == NULL) {
        copy_message(output->message, sizeof output->message, "cannot create libpng writer");
        output->failed = 1;
        return -1;
    }
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_write_struct(&png, NULL);
        copy_message(output->message, sizeof output->message, "cannot create libpng info");
        output->failed = 1;
        return -1;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        output->failed = 1;
        return -1;
    }
    png_set_write_fn(png, output, encoder_write, encoder_flush);
    png_set_compression_level(png, params->compression_level);
    png_set_IHDR(png, info, params->width, params->height, params->bit_depth, params->color_type,
                 params->interlaced ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    if (params->palette != NULL && params->palette_count > 0) {
        png_color colors[256];
        int count = params->palette_count > 256 ? 256 : params->palette_count;
        for (int i = 0; i < count; i++) {
            colors[i].red = params->palette[3 * i];
            colors[i].green = params->palette[3 * i + 1];
            colors[i].blue = params->palette[3 * i + 2];
        }
        png_set_PLTE(png, info, colors, count);
    }
    if ((params->trans_alpha != NULL && params->trans_count > 0) || params->has_trans_color) {
        png_color_16 key;
        memset(&key, 0, sizeof key);
        key.gray = params->trans_gray;
        key.red = params->trans_red;
        key.green = params->trans_green;
        key.blue = params->trans_blue;
        png_set_tRNS(png, info, params->trans_alpha, params->trans_alpha != NULL ? params->trans_count : 0,
                     params->has_trans_color ? &key : NULL);
    }
    png_write_info(png, info);
    if (params->strip_filler) png_set_filler(png, 0, PNG_FILLER_AFTER);
    int passes = png_set_interlace_handling(png);
    for (int pass = 0; pass < passes; pass++) {
        for (uint32_t y = 0; y < params->height; y++) {
            png_write_row(png, rows + (size_t)y * stride);
        }
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    return 0;
}

void webimage_png_output_free(webimage_png_output *output) {
    if (output == NULL) return;
    free(output->data);
    output->data = NULL;
    output->size = 0;
    output->capacity = 0;
}

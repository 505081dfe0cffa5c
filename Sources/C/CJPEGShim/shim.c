#include "CJPEGShim.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

#include "decoder.h"

/* ---- Error handling ----------------------------------------------------------------------------
   libjpeg reports fatal errors through error_exit, which must not return: ours formats the message
   and longjmps back to the shim function that called libjpeg. Recoverable corruption arrives as
   warnings (emit_message level -1); libjpeg then carries on, e.g. filling missing data with grey.
   Most of those are kept as warnings (the image is still shown, as Pillow and other libjpeg-based
   decoders do), but the end of the data before the end of the image (JWRN_JPEG_EOF) is fatal: the
   rest of the picture would be made up, and truncated files must be reported. This matches the
   corpus reference: Pillow rejects exactly the truncated files and the ones where libjpeg errors,
   including errors in the markers after the last scan (see webimage_jpeg_finish). */

static void webimage_jpeg_error_exit(j_common_ptr cinfo) {
    webimage_jpeg_error_mgr *err = (webimage_jpeg_error_mgr *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, err->message);
    longjmp(err->jump, 1);
}

static int webimage_jpeg_warning_is_fatal(int code) {
    return code == JWRN_JPEG_EOF;
}

static void webimage_jpeg_emit_message(j_common_ptr cinfo, int level) {
    webimage_jpeg_error_mgr *err = (webimage_jpeg_error_mgr *)cinfo->err;
    if (level >= 0) return; /* trace messages: never printed */
    cinfo->err->num_warnings += 1;
    if (webimage_jpeg_warning_is_fatal(cinfo->err->msg_code)) {
        (*cinfo->err->format_message)(cinfo, err->message);
        longjmp(err->jump, 1);
    }
}

static void webimage_jpeg_output_message(j_common_ptr cinfo) {
    (void)cinfo; /* never print */
}

void webimage_jpeg_install_errors(webimage_jpeg_error_mgr *err) {
    jpeg_std_error(&err->pub);
    err->pub.error_exit = webimage_jpeg_error_exit;
    err->pub.emit_message = webimage_jpeg_emit_message;
    err->pub.output_message = webimage_jpeg_output_message;
    err->message[0] = '\0';
}

/* ---- Decoding --------------------------------------------------------------------------------- */

void webimage_jpeg_progress(j_common_ptr cinfo) {
    webimage_jpeg_decoder *decoder = (webimage_jpeg_decoder *)cinfo->client_data;
    if (decoder->max_scans > 0 && decoder->cinfo.input_scan_number > decoder->max_scans) {
        snprintf(decoder->err.message, sizeof decoder->err.message, "more than %d progressive scans",
                 decoder->max_scans);
        decoder->err.pub.msg_code = 0;
        longjmp(decoder->err.jump, 1);
    }
}

static int webimage_jpeg_create(webimage_jpeg_decoder *decoder) {
    if (setjmp(decoder->err.jump)) return -1;
    jpeg_create_decompress(&decoder->cinfo);
    return 0;
}

webimage_jpeg_decoder *webimage_jpeg_decoder_create(long max_memory, int max_scans) {
    webimage_jpeg_decoder *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL) return NULL;
    decoder->cinfo.err = &decoder->err.pub;
    webimage_jpeg_install_errors(&decoder->err);
    decoder->max_scans = max_scans;
    if (webimage_jpeg_create(decoder) != 0) {
        jpeg_destroy_decompress(&decoder->cinfo); /* safe: the object is zeroed or fully created */
        free(decoder);
        return NULL;
    }
    decoder->created = 1;
    decoder->cinfo.client_data = decoder;
    if (max_memory > 0) decoder->cinfo.mem->max_memory_to_use = max_memory;
    decoder->progress.progress_monitor = webimage_jpeg_progress;
    decoder->cinfo.progress = &decoder->progress;
    return decoder;
}

void webimage_jpeg_decoder_destroy(webimage_jpeg_decoder *decoder) {
    if (decoder == NULL) return;
    if (decoder->created) jpeg_destroy_decompress(&decoder->cinfo);
    if (decoder->stream != NULL) {
        free(decoder->stream->buffer);
        free(decoder->stream);
    }
    free(decoder);
}

const char *webimage_jpeg_decoder_message(const webimage_jpeg_decoder *decoder) {
    return decoder->err.message;
}

webimage_jpeg_failure webimage_jpeg_decoder_failure(const webimage_jpeg_decoder *decoder) {
    switch (decoder->err.pub.msg_code) {
    case JERR_OUT_OF_MEMORY:
    case JERR_NO_BACKING_STORE: /* the memory bound was reached */
    case JERR_IMAGE_TOO_BIG:
    case JERR_WIDTH_OVERFLOW:
        return WEBIMAGE_JPEG_FAILURE_TOO_LARGE;
    case JERR_SOF_UNSUPPORTED:
    case JERR_NOT_COMPILED:
        return WEBIMAGE_JPEG_FAILURE_UNSUPPORTED;
    case JERR_BAD_PRECISION: /* 12- and 16-bit samples are valid JPEG, but this build reads 8-bit only */
        return (decoder->cinfo.data_precision == 12 || decoder->cinfo.data_precision == 16)
            ? WEBIMAGE_JPEG_FAILURE_UNSUPPORTED
            : WEBIMAGE_JPEG_FAILURE_CORRUPT;
    default:
        return WEBIMAGE_JPEG_FAILURE_CORRUPT;
    }
}

static webimage_jpeg_color webimage_jpeg_color_of(J_COLOR_SPACE space) {
    switch (space) {
    case JCS_GRAYSCALE: return WEBIMAGE_JPEG_COLOR_GRAY;
    case JCS_RGB: return WEBIMAGE_JPEG_COLOR_RGB;
    case JCS_YCbCr: return WEBIMAGE_JPEG_COLOR_YCBCR;
    case JCS_CMYK: return WEBIMAGE_JPEG_COLOR_CMYK;
    case JCS_YCCK: return WEBIMAGE_JPEG_COLOR_YCCK;
    default: return WEBIMAGE_JPEG_COLOR_UNKNOWN;
    }
}

static const unsigned char webimage_exif_signature[6] = {'E', 'x', 'i', 'f', 0, 0};

void webimage_jpeg_fill_header(webimage_jpeg_decoder *decoder, webimage_jpeg_header *header) {
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    header->width = cinfo->image_width;
    header->height = cinfo->image_height;
    header->components = cinfo->num_components;
    header->color = webimage_jpeg_color_of(cinfo->jpeg_color_space);
    header->saw_adobe_marker = cinfo->saw_Adobe_marker ? 1 : 0;
    header->progressive = cinfo->progressive_mode ? 1 : 0;
    header->precision = cinfo->data_precision;
    for (jpeg_saved_marker_ptr marker = cinfo->marker_list; marker != NULL; marker = marker->next) {
        if (marker->marker == JPEG_APP0 + 1 && marker->data_length >= sizeof webimage_exif_signature &&
            memcmp(marker->data, webimage_exif_signature, sizeof webimage_exif_signature) == 0) {
            header->exif = marker->data + sizeof webimage_exif_signature;
            header->exif_length = marker->data_length - sizeof webimage_exif_signature;
            break;
        }
    }
}

int webimage_jpeg_app2_segment(
    const webimage_jpeg_decoder *decoder, int index, const unsigned char **data, size_t *length) {
    int seen = 0;
    for (jpeg_saved_marker_ptr marker = decoder->cinfo.marker_list; marker != NULL; marker = marker->next) {
        if (marker->marker != JPEG_APP0 + 2) continue;
        if (seen++ == index) {
            *data = marker->data;
            *length = marker->data_length;
            return 1;
        }
    }
    return 0;
}

int webimage_jpeg_read_header(
    webimage_jpeg_decoder *decoder, const unsigned char *data, size_t size, webimage_jpeg_header *header) {
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    memset(header, 0, sizeof *header);
    if (setjmp(decoder->err.jump)) return -1;
    jpeg_mem_src(cinfo, data, (unsigned long)size);
    jpeg_save_markers(cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_save_markers(cinfo, JPEG_APP0 + 2, 0xFFFF);
    if (jpeg_read_header(cinfo, TRUE) != JPEG_HEADER_OK) {
        /* Only a tables-only datastream (no image) gets here with a memory source. */
        snprintf(decoder->err.message, sizeof decoder->err.message, "JPEG datastream contains no image");
        return -1;
    }
    webimage_jpeg_fill_header(decoder, header);
    return 0;
}

int webimage_jpeg_scaled_size(
    webimage_jpeg_decoder *decoder, unsigned int scale_num, unsigned int *width, unsigned int *height) {
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    if (setjmp(decoder->err.jump)) return -1;
    cinfo->scale_num = scale_num;
    cinfo->scale_denom = 8;
    jpeg_calc_output_dimensions(cinfo);
    *width = cinfo->output_width;
    *height = cinfo->output_height;
    return 0;
}

int webimage_jpeg_component_scales(
    const webimage_jpeg_decoder *decoder, int *identifiers, int *block_sizes, int capacity) {
    const struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    for (int ci = 0; ci < cinfo->num_components && ci < capacity; ci++) {
        const jpeg_component_info *component = &cinfo->comp_info[ci];
        identifiers[ci] = component->component_id;
        block_sizes[ci] = webimage_jpeg_block_size(component);
    }
    return cinfo->num_components;
}

void webimage_jpeg_set_block_smoothing(webimage_jpeg_decoder *decoder, int enabled) {
    decoder->cinfo.do_block_smoothing = enabled ? TRUE : FALSE;
}

int webimage_jpeg_start(
    webimage_jpeg_decoder *decoder, unsigned int scale_num, webimage_jpeg_output output, unsigned int *width,
    unsigned int *height) {
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    if (setjmp(decoder->err.jump)) return -1;
    cinfo->scale_num = scale_num;
    cinfo->scale_denom = 8;
    cinfo->dct_method = JDCT_ISLOW;
    cinfo->do_fancy_upsampling = TRUE;
    cinfo->out_color_space = output == WEBIMAGE_JPEG_OUTPUT_CMYK ? JCS_CMYK : JCS_EXT_RGBA;
    if (decoder->dc_only_count > 0) {
        jpeg_calc_output_dimensions(cinfo); /* the scaled block sizes */
        webimage_jpeg_install_dc_arrays(decoder);
    }
    if (!jpeg_start_decompress(cinfo)) {
        snprintf(decoder->err.message, sizeof decoder->err.message, "JPEG decompression suspended");
        return -1;
    }
    if (cinfo->output_components != 4) {
        snprintf(decoder->err.message, sizeof decoder->err.message, "unexpected %d output components",
                 cinfo->output_components);
        return -1;
    }
    *width = cinfo->output_width;
    *height = cinfo->output_height;
    return 0;
}

int webimage_jpeg_read_pixels(webimage_jpeg_decoder *decoder, unsigned char *pixels, size_t stride, size_t height) {
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    if (setjmp(decoder->err.jump)) return -1;
    if (height < cinfo->output_height) {
        snprintf(decoder->err.message, sizeof decoder->err.message, "pixel buffer too small");
        return -1;
    }
    while (cinfo->output_scanline < cinfo->output_height) {
        JSAMPROW row = pixels + (size_t)cinfo->output_scanline * stride;
        if (jpeg_read_scanlines(cinfo, &row, 1) != 1) {
            snprintf(decoder->err.message, sizeof decoder->err.message, "JPEG decompression suspended");
            return -1;
        }
    }
    return 0;
}

int webimage_jpeg_finish(webimage_jpeg_decoder *decoder) {
    if (setjmp(decoder->err.jump)) return -1;
    (void)jpeg_finish_decompress(&decoder->cinfo);
    return 0;
}

/* ---- Encoding --------------------------------------------------------------------------------- */

typedef struct {
    struct jpeg_compress_struct cinfo;
    webimage_jpeg_error_mgr err;
    unsigned char *buffer;
    unsigned long size;
} webimage_jpeg_encoder;

static int webimage_jpeg_compress(webimage_jpeg_encoder *encoder, const unsigned char *pixels, unsigned int width,
                                  unsigned int height, size_t stride, int quality, int progressive) {
    struct jpeg_compress_struct *cinfo = &encoder->cinfo;
    if (setjmp(encoder->err.jump)) return -1;
    jpeg_create_compress(cinfo);
    jpeg_mem_dest(cinfo, &encoder->buffer, &encoder->size);
    cinfo->image_width = width;
    cinfo->image_height = height;
    cinfo->input_components = 4;
    cinfo->in_color_space = JCS_EXT_RGBX;
    jpeg_set_defaults(cinfo); /* YCbCr, 2x2 luma sampling (4:2:0), islow DCT */
    jpeg_set_quality(cinfo, quality, TRUE);
    cinfo->optimize_coding = TRUE;
    if (progressive) jpeg_simple_progression(cinfo);
    jpeg_start_compress(cinfo, TRUE);
    while (cinfo->next_scanline < cinfo->image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)cinfo->next_scanline * stride);
        jpeg_write_scanlines(cinfo, &row, 1);
    }
    jpeg_finish_compress(cinfo);
    return 0;
}

int webimage_jpeg_encode_rgbx(
    const unsigned char *pixels, unsigned int width, unsigned int height, size_t stride, int quality,
    int progressive, unsigned char **output, size_t *output_size, char *message, size_t message_capacity) {
    *output = NULL;
    *output_size = 0;
    if (message_capacity > 0) message[0] = '\0';
    webimage_jpeg_encoder *encoder = calloc(1, sizeof *encoder);
    if (encoder == NULL) {
        if (message_capacity > 0) snprintf(message, message_capacity, "out of memory");
        return -1;
    }
    encoder->cinfo.err = &encoder->err.pub;
    webimage_jpeg_install_errors(&encoder->err);
    int status = webimage_jpeg_compress(encoder, pixels, width, height, stride, quality, progressive);
    jpeg_destroy_compress(&encoder->cinfo);
    if (status == 0) {
        *output = encoder->buffer;
        *output_size = encoder->size;
    } else {
        /* The memory destination owns a malloc'd buffer even after a failure. */
        free(encoder->buffer);
        if (message_capacity > 0) snprintf(message, message_capacity, "%s", encoder->err.message);
    }
    free(encoder);
    return status;
}

void webimage_jpeg_free(void *buffer) {
    free(buffer);
}

int webimage_jpeg_supports_lossless(void) {
#if defined(LIBJPEG_TURBO_VERSION_NUMBER) && LIBJPEG_TURBO_VERSION_NUMBER >= 3000000
    return 1;
#else
    return 0;
#endif
}

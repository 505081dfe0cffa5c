#include "CJPEGShim.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

#include "decoder.h"

/* ---- The suspending source ---------------------------------------------------------------------
   fill_input_buffer returns FALSE ("suspend"): libjpeg then returns from whatever it was doing with
   next_input_byte left at the last point it can restart from, and the same call is made again once
   more bytes are appended. Only the bytes from that point on are kept, so memory stays in
   proportion to one scan's worth of look-ahead, not to the file. */

static void stream_init_source(j_decompress_ptr cinfo) { (void)cinfo; }

static boolean stream_fill_input_buffer(j_decompress_ptr cinfo) {
    (void)cinfo;
    return FALSE;
}

static void stream_skip_input_data(j_decompress_ptr cinfo, long count) {
    webimage_jpeg_stream *stream = ((webimage_jpeg_decoder *)cinfo->client_data)->stream;
    if (count <= 0) return;
    if ((size_t)count > stream->pub.bytes_in_buffer) {
        stream->pending_skip += (size_t)count - stream->pub.bytes_in_buffer;
        stream->pub.next_input_byte += stream->pub.bytes_in_buffer;
        stream->pub.bytes_in_buffer = 0;
    } else {
        stream->pub.next_input_byte += count;
        stream->pub.bytes_in_buffer -= (size_t)count;
    }
}

static void stream_term_source(j_decompress_ptr cinfo) { (void)cinfo; }

webimage_jpeg_decoder *webimage_jpeg_decoder_create_incremental(long max_memory, int max_scans) {
    webimage_jpeg_decoder *decoder = webimage_jpeg_decoder_create(max_memory, max_scans);
    if (decoder == NULL) return NULL;
    decoder->stream = calloc(1, sizeof *decoder->stream);
    if (decoder->stream == NULL) {
        webimage_jpeg_decoder_destroy(decoder);
        return NULL;
    }
    struct jpeg_source_mgr *source = &decoder->stream->pub;
    source->init_source = stream_init_source;
    source->fill_input_buffer = stream_fill_input_buffer;
    source->skip_input_data = stream_skip_input_data;
    source->resync_to_restart = jpeg_resync_to_restart;
    source->term_source = stream_term_source;
    source->next_input_byte = NULL;
    source->bytes_in_buffer = 0;
    decoder->cinfo.src = source;
    return decoder;
}

int webimage_jpeg_stream_append(webimage_jpeg_decoder *decoder, const unsigned char *data, size_t size) {
    webimage_jpeg_stream *stream = decoder->stream;
    if (stream == NULL) return -1;
    size_t skipped = size < stream->pending_skip ? size : stream->pending_skip;
    stream->pending_skip -= skipped;
    data += skipped;
    size -= skipped;
    size_t kept = stream->pub.bytes_in_buffer;
    if (kept > 0 && stream->pub.next_input_byte != stream->buffer) {
        memmove(stream->buffer, stream->pub.next_input_byte, kept);
    }
    if (size > stream->capacity - kept) {
        size_t capacity = stream->capacity < 65536 ? 65536 : stream->capacity;
        while (capacity - kept < size) {
            if (capacity > ((size_t)-1) / 2) return -1;
            capacity *= 2;
        }
        unsigned char *grown = realloc(stream->buffer, capacity);
        if (grown == NULL) {
            snprintf(decoder->err.message, sizeof decoder->err.message, "out of memory");
            return -1;
        }
        stream->buffer = grown;
        stream->capacity = capacity;
    }
    if (size > 0) memcpy(stream->buffer + kept, data, size);
    stream->pub.next_input_byte = stream->buffer;
    stream->pub.bytes_in_buffer = kept + size;
    return 0;
}

int webimage_jpeg_stream_read_header(webimage_jpeg_decoder *decoder, webimage_jpeg_header *header) {
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    webimage_jpeg_stream *stream = decoder->stream;
    memset(header, 0, sizeof *header);
    if (setjmp(decoder->err.jump)) return -1;
    if (!stream->header_read) {
        jpeg_save_markers(cinfo, JPEG_APP0 + 1, 0xFFFF);
        jpeg_save_markers(cinfo, JPEG_APP0 + 2, 0xFFFF);
        stream->header_read = 1; /* markers are set up once; the header itself may take several calls */
    }
    int status = jpeg_read_header(cinfo, TRUE);
    if (status == JPEG_SUSPENDED) return 0;
    if (status != JPEG_HEADER_OK) {
        snprintf(decoder->err.message, sizeof decoder->err.message, "JPEG datastream contains no image");
        return -1;
    }
    webimage_jpeg_fill_header(decoder, header);
    return 1;
}

int webimage_jpeg_stream_start(
    webimage_jpeg_decoder *decoder, unsigned int scale_num, webimage_jpeg_output output, unsigned int *width,
    unsigned int *height, int *multi_scan) {
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    webimage_jpeg_stream *stream = decoder->stream;
    if (setjmp(decoder->err.jump)) return -1;
    if (!stream->started) {
        cinfo->scale_num = scale_num;
        cinfo->scale_denom = 8;
        cinfo->dct_method = JDCT_ISLOW;
        cinfo->do_fancy_upsampling = TRUE;
        cinfo->out_color_space = output == WEBIMAGE_JPEG_OUTPUT_CMYK ? JCS_CMYK : JCS_EXT_RGBA;
        stream->multi_scan = jpeg_has_multiple_scans(cinfo) ? 1 : 0;
        cinfo->buffered_image = stream->multi_scan ? TRUE : FALSE;
        stream->started = 1;
    }
    /* Buffered-image and single-scan starts read no scan data; they only suspend on odd files. */
    if (!jpeg_start_decompress(cinfo)) return 0;
    if (cinfo->output_components != 4) {
        snprintf(decoder->err.message, sizeof decoder->err.message, "unexpected %d output components",
                 cinfo->output_components);
        return -1;
    }
    *width = cinfo->output_width;
    *height = cinfo->output_height;
    *multi_scan = stream->multi_scan;
    return 1;
}

static void stream_report(const webimage_jpeg_decoder *decoder, webimage_jpeg_stream_progress *progress) {
    const webimage_jpeg_stream *stream = decoder->stream;
    progress->multi_scan = stream->multi_scan;
    progress->completed_scans = stream->completed_scans;
    progress->rows = decoder->cinfo.output_scanline;
    progress->complete = stream->complete;
}

int webimage_jpeg_stream_consume(
    webimage_jpeg_decoder *decoder, unsigned char *pixels, size_t stride, size_t height,
    webimage_jpeg_stream_progress *progress) {
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    webimage_jpeg_stream *stream = decoder->stream;
    if (setjmp(decoder->err.jump)) return -1;
    if (stream->complete) {
        stream_report(decoder, progress);
        return 0;
    }
    if (stream->multi_scan) {
        for (;;) {
            int status = jpeg_consume_input(cinfo);
            if (status == JPEG_SUSPENDED) break;
            if (status == JPEG_SCAN_COMPLETED) stream->completed_scans = cinfo->input_scan_number;
            if (status == JPEG_REACHED_EOI) {
                stream->completed_scans = cinfo->input_scan_number;
                stream->complete = 1;
                break;
            }
        }
    } else {
        if (height < cinfo->output_height || pixels == NULL) {
            snprintf(decoder->err.message, sizeof decoder->err.message, "pixel buffer too small");
            return -1;
        }
        while (cinfo->output_scanline < cinfo->output_height) {
            JSAMPROW row = pixels + (size_t)cinfo->output_scanline * stride;
            if (jpeg_read_scanlines(cinfo, &row, 1) != 1) break; /* suspended */
        }
        /* The markers after the image up to EOI, so that corruption there is reported too. */
        if (cinfo->output_scanline == cinfo->output_height && jpeg_finish_decompress(cinfo)) stream->complete = 1;
    }
    stream_report(decoder, progress);
    return 0;
}

int webimage_jpeg_stream_render(
    webimage_jpeg_decoder *decoder, int scan, unsigned char *pixels, size_t stride, size_t height) {
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    webimage_jpeg_stream *stream = decoder->stream;
    if (setjmp(decoder->err.jump)) return -1;
    if (!stream->multi_scan || height < cinfo->output_height) {
        snprintf(decoder->err.message, sizeof decoder->err.message, "nothing to render");
        return -1;
    }
    /* The previous pass ended before the input reached the next scan; it has by now, or the output
       scan asked for is the same one again. */
    if (stream->output_unfinished) {
        if (!jpeg_finish_output(cinfo)) {
            snprintf(decoder->err.message, sizeof decoder->err.message, "JPEG output pass not finished");
            return -1;
        }
        stream->output_unfinished = 0;
    }
    /* An output scan whose input is complete never makes jpeg_read_scanlines wait for data, except
       through block smoothing: it wants the input two rows ahead in the scan's own DC data, which
       only holds once the next scan has begun (or the image is complete). Until then the pass is
       rendered without smoothing (blockier early scans; a complete image is never smoothed). */
    cinfo->do_block_smoothing = (cinfo->input_scan_number > scan || stream->complete) ? TRUE : FALSE;
    if (!jpeg_start_output(cinfo, scan)) {
        snprintf(decoder->err.message, sizeof decoder->err.message, "JPEG output pass suspended");
        return -1;
    }
    while (cinfo->output_scanline < cinfo->output_height) {
        JSAMPROW row = pixels + (size_t)cinfo->output_scanline * stride;
        if (jpeg_read_scanlines(cinfo, &row, 1) != 1) {
            snprintf(decoder->err.message, sizeof decoder->err.message, "JPEG output pass suspended");
            return -1;
        }
    }
    /* jpeg_finish_output reads on to the next scan's marker, which may not have arrived yet. */
    if (!jpeg_finish_output(cinfo)) {
        stream->output_unfinished = 1;
    } else if (stream->complete) {
        (void)jpeg_finish_decompress(cinfo);
    }
    return 1;
}

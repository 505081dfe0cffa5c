#ifndef WEBIMAGE_JPEG_DECODER_H
#define WEBIMAGE_JPEG_DECODER_H
/* What shim.c (one-shot decoding, encoding) and stream.c (incremental decoding) share: the decoder
   object and the error manager. Private to this target. */

#include <setjmp.h>
#include <stdio.h>

#include <jpeglib.h>

#include "CJPEGShim.h"

typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
} webimage_jpeg_error_mgr;

/* The suspending source of an incremental decoder: the bytes appended and not yet consumed. */
typedef struct {
    struct jpeg_source_mgr pub;
    unsigned char *buffer;
    size_t capacity;
    /* Bytes libjpeg asked to skip beyond what had arrived: dropped from the next appends. */
    size_t pending_skip;
    int header_read;
    int started;
    int multi_scan;
    int completed_scans;
    int complete;
    /* A buffered-image output pass ended but jpeg_finish_output still waits for the next scan. */
    int output_unfinished;
} webimage_jpeg_stream;

struct webimage_jpeg_decoder {
    struct jpeg_decompress_struct cinfo;
    webimage_jpeg_error_mgr err;
    struct jpeg_progress_mgr progress;
    int max_scans;
    int created;
    /* webimage_jpeg_skip_coefficient_zeroing() was asked for; whether it took effect. */
    int skip_coefficient_zeroing;
    int coefficient_zeroing_skipped;
    /* libjpeg's own request_virt_barray, which ours calls with pre_zero off. */
    jvirt_barray_ptr (*library_request_virt_barray)(
        j_common_ptr cinfo, int pool_id, boolean pre_zero, JDIMENSION blocksperrow, JDIMENSION numrows,
        JDIMENSION maxaccess);
    /* NULL for one-shot decoders (memory source). */
    webimage_jpeg_stream *stream;
};

void webimage_jpeg_install_errors(webimage_jpeg_error_mgr *err);
void webimage_jpeg_progress(j_common_ptr cinfo);
/* Fills `header` from the markers read (after jpeg_read_header). */
void webimage_jpeg_fill_header(webimage_jpeg_decoder *decoder, webimage_jpeg_header *header);

#endif

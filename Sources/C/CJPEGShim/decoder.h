#ifndef WEBIMAGE_JPEG_DECODER_H
#define WEBIMAGE_JPEG_DECODER_H
/* What shim.c (one-shot decoding, encoding) and stream.c (incremental decoding) share: the decoder
   object and the error manager. Private to this target. */

#include <setjmp.h>
#include <stdio.h>

#include <jpeglib.h>

#include "CJPEGShim.h"

struct webimage_jpeg_dc_array;

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
    /* The components webimage_jpeg_store_dc_only() named (by identifier), and the DC-only arrays
       the last webimage_jpeg_start() made (dc_store.c). */
    int dc_only_identifiers[4];
    int dc_only_count;
    int requested_arrays;
    int dc_only_arrays;
    struct webimage_jpeg_dc_array *dc_arrays;
    /* libjpeg's own virtual block arrays, for every other component. */
    jvirt_barray_ptr (*library_request_virt_barray)(
        j_common_ptr cinfo, int pool_id, boolean pre_zero, JDIMENSION blocksperrow, JDIMENSION numrows,
        JDIMENSION maxaccess);
    JBLOCKARRAY (*library_access_virt_barray)(
        j_common_ptr cinfo, jvirt_barray_ptr ptr, JDIMENSION start_row, JDIMENSION num_rows, boolean writable);
    /* NULL for one-shot decoders (memory source). */
    webimage_jpeg_stream *stream;
};

/* The size, in pixels, libjpeg's inverse DCT makes of each of `component`'s 8x8 blocks at the
   scale set (the larger side where libjpeg scales the two apart). */
static inline int webimage_jpeg_block_size(const jpeg_component_info *component) {
#if JPEG_LIB_VERSION >= 70
    int width = component->DCT_h_scaled_size, height = component->DCT_v_scaled_size;
    return width > height ? width : height;
#else
    return component->DCT_scaled_size;
#endif
}

void webimage_jpeg_install_errors(webimage_jpeg_error_mgr *err);
/* Before jpeg_start_decompress (output size computed): routes the coefficient arrays of the
   components webimage_jpeg_store_dc_only() named, where it applies, to DC-only arrays. */
void webimage_jpeg_install_dc_arrays(webimage_jpeg_decoder *decoder);
void webimage_jpeg_progress(j_common_ptr cinfo);
/* Fills `header` from the markers read (after jpeg_read_header). */
void webimage_jpeg_fill_header(webimage_jpeg_decoder *decoder, webimage_jpeg_header *header);

#endif

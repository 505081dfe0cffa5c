#include <stdio.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

#include "decoder.h"

/* ---- DC-only coefficient arrays ----------------------------------------------------------------
   libjpeg decodes a progressive file into a whole-image array of coefficients, 64 per 8x8 block
   (128 bytes), that every scan and then the output pass walk from top to bottom. When a
   component's AC scans were left out of the stream (JPEGScanFilter, for a scale where the
   component's blocks become one pixel), only its DC scans write, and they write only the DC
   coefficient of each block: the other 63 stay zero. For such a component the array below takes
   the place of libjpeg's. It keeps the DC coefficients alone, 2 bytes a block, and hands libjpeg a
   window of the block rows it asks for, whose DC values are copied in and, once written, copied
   back out when the window moves on; the AC coefficients in the window are zero and nothing
   writes them. This is the job libjpeg's virtual arrays exist for (its memory manager swaps rows
   out to a backing store the same way), and libjpeg sees the very coefficients a zeroed full
   array would hold, so the pixels are the same. What changes is the memory walked: a 10 MP
   photo's 42 MB array, read and written at a cache miss per block by each DC scan and by the
   output pass, becomes 0.7 MB plus a window of a few block rows. */

struct webimage_jpeg_dc_array {
    JDIMENSION blocks_per_row;
    JDIMENSION rows;
    JDIMENSION max_access;
    JCOEF *dc;               /* rows * blocks_per_row DC coefficients */
    JBLOCKROW window;        /* max_access rows of blocks */
    JBLOCKARRAY row_pointers; /* max_access pointers into the window */
    JDIMENSION window_start; /* the first row the window holds */
    JDIMENSION window_rows;  /* how many it holds (0: none yet) */
    int dirty;               /* written since it was loaded */
    struct webimage_jpeg_dc_array *next;
};

/* The DC values of the window's rows go back to the array. */
static void webimage_jpeg_dc_flush(struct webimage_jpeg_dc_array *array) {
    size_t count = (size_t)array->window_rows * array->blocks_per_row;
    JCOEF *dc = array->dc + (size_t)array->window_start * array->blocks_per_row;
    for (size_t block = 0; block < count; block++) dc[block] = array->window[block][0];
    array->dirty = 0;
}

/* The window holds rows [start, start + count), with their DC values. */
static void webimage_jpeg_dc_load(struct webimage_jpeg_dc_array *array, JDIMENSION start, JDIMENSION count) {
    array->window_start = start;
    array->window_rows = count;
    size_t blocks = (size_t)count * array->blocks_per_row;
    const JCOEF *dc = array->dc + (size_t)start * array->blocks_per_row;
    for (size_t block = 0; block < blocks; block++) array->window[block][0] = dc[block];
}

static JBLOCKARRAY webimage_jpeg_access_dc_array(
    j_common_ptr cinfo, jvirt_barray_ptr pointer, JDIMENSION start_row, JDIMENSION num_rows, boolean writable) {
    webimage_jpeg_decoder *decoder = (webimage_jpeg_decoder *)cinfo->client_data;
    struct webimage_jpeg_dc_array *array = decoder->dc_arrays;
    while (array != NULL && (jvirt_barray_ptr)array != pointer) array = array->next;
    if (array == NULL) return decoder->library_access_virt_barray(cinfo, pointer, start_row, num_rows, writable);
    /* libjpeg's own checks of an access. */
    if (num_rows > array->max_access || (size_t)start_row + num_rows > array->rows) ERREXIT(cinfo, JERR_BAD_VIRTUAL_ACCESS);
    if (start_row < array->window_start ||
        (size_t)start_row + num_rows > (size_t)array->window_start + array->window_rows) {
        if (array->dirty) webimage_jpeg_dc_flush(array);
        webimage_jpeg_dc_load(array, start_row, num_rows);
    }
    if (writable) array->dirty = 1;
    return array->row_pointers + (start_row - array->window_start);
}

/* Whether the component at `index` gets a DC-only array: named by the caller and, at the scale
   set, one pixel a block. */
static int webimage_jpeg_component_is_dc_only(const webimage_jpeg_decoder *decoder, int index) {
    const struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    if (index >= cinfo->num_components) return 0;
    const jpeg_component_info *component = &cinfo->comp_info[index];
    if (webimage_jpeg_block_size(component) != 1) return 0;
    for (int i = 0; i < decoder->dc_only_count; i++) {
        if (decoder->dc_only_identifiers[i] == component->component_id) return 1;
    }
    return 0;
}

static jvirt_barray_ptr webimage_jpeg_request_dc_array(
    j_common_ptr cinfo, int pool_id, boolean pre_zero, JDIMENSION blocksperrow, JDIMENSION numrows,
    JDIMENSION maxaccess) {
    webimage_jpeg_decoder *decoder = (webimage_jpeg_decoder *)cinfo->client_data;
    /* The coefficient controller asks for one array per component, in order (jdcoefct.c). */
    int index = decoder->requested_arrays++;
    const jpeg_component_info *component = index < decoder->cinfo.num_components ? &decoder->cinfo.comp_info[index] : NULL;
    if (component == NULL || !pre_zero || maxaccess == 0 || !webimage_jpeg_component_is_dc_only(decoder, index) ||
        blocksperrow < component->width_in_blocks || numrows < component->height_in_blocks) {
        return decoder->library_request_virt_barray(cinfo, pool_id, pre_zero, blocksperrow, numrows, maxaccess);
    }
    if (maxaccess > numrows) maxaccess = numrows;
    size_t dc_bytes = (size_t)blocksperrow * numrows * sizeof(JCOEF);
    size_t window_bytes = (size_t)blocksperrow * maxaccess * sizeof(JBLOCK);
    if (dc_bytes / sizeof(JCOEF) / blocksperrow != numrows || window_bytes / sizeof(JBLOCK) / blocksperrow != maxaccess) {
        ERREXIT(cinfo, JERR_OUT_OF_MEMORY);
    }
    struct webimage_jpeg_dc_array *array = (*cinfo->mem->alloc_small)(cinfo, pool_id, sizeof *array);
    memset(array, 0, sizeof *array);
    array->blocks_per_row = blocksperrow;
    array->rows = numrows;
    array->max_access = maxaccess;
    array->dc = (*cinfo->mem->alloc_large)(cinfo, pool_id, dc_bytes);
    memset(array->dc, 0, dc_bytes);
    array->window = (*cinfo->mem->alloc_large)(cinfo, pool_id, window_bytes);
    memset(array->window, 0, window_bytes);
    array->row_pointers = (*cinfo->mem->alloc_small)(cinfo, pool_id, maxaccess * sizeof(JBLOCKROW));
    for (JDIMENSION row = 0; row < maxaccess; row++) array->row_pointers[row] = array->window + (size_t)row * blocksperrow;
    array->next = decoder->dc_arrays;
    decoder->dc_arrays = array;
    decoder->dc_only_arrays += 1;
    return (jvirt_barray_ptr)array;
}

void webimage_jpeg_install_dc_arrays(webimage_jpeg_decoder *decoder) {
    struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
    decoder->requested_arrays = 0;
    decoder->dc_only_arrays = 0;
    decoder->dc_arrays = NULL;
    if (decoder->dc_only_count == 0 || !cinfo->progressive_mode || cinfo->arith_code || cinfo->do_block_smoothing ||
        cinfo->buffered_image) {
        return;
    }
    int any = 0;
    for (int index = 0; index < cinfo->num_components; index++) any |= webimage_jpeg_component_is_dc_only(decoder, index);
    if (!any || cinfo->mem->request_virt_barray == webimage_jpeg_request_dc_array) return;
    decoder->library_request_virt_barray = cinfo->mem->request_virt_barray;
    decoder->library_access_virt_barray = cinfo->mem->access_virt_barray;
    cinfo->mem->request_virt_barray = webimage_jpeg_request_dc_array;
    cinfo->mem->access_virt_barray = webimage_jpeg_access_dc_array;
}

void webimage_jpeg_store_dc_only(webimage_jpeg_decoder *decoder, const int *identifiers, int count) {
    int kept = 0;
    for (int i = 0; i < count && kept < (int)(sizeof decoder->dc_only_identifiers / sizeof *decoder->dc_only_identifiers); i++) {
        decoder->dc_only_identifiers[kept++] = identifiers[i];
    }
    decoder->dc_only_count = kept;
}

int webimage_jpeg_dc_only_arrays(const webimage_jpeg_decoder *decoder) {
    return decoder->dc_only_arrays;
}

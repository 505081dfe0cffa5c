#ifndef WEBIMAGE_TIFF_READER_H
#define WEBIMAGE_TIFF_READER_H
/* What shim.c (opening, pages, RGBA decoding, writing) and wide.c (16-bit strips and tiles) share:
   the reader object, its error record and two helpers. Private to this target. */

#include <stdint.h>

#include <tiffio.h>

#include "CTIFFShim.h"

typedef struct {
    char text[512];
    int set;
} webimage_tiff_errors;

struct webimage_tiff {
    webimage_tiff_errors errors; /* first: handlers get this struct's address */
    TIFF *tif;
    const uint8_t *data;
    uint64_t size;
    uint64_t position;
};

/* Keeps `text` as the handle's error unless one is kept already. */
void webimage_tiff_record_text(webimage_tiff_errors *errors, const char *text);

/* The kind of alpha a page's first extra sample is (EXTRASAMPLE_ASSOCALPHA or _UNASSALPHA), or 0. */
int webimage_tiff_alpha_kind(TIFF *tif, uint16_t photometric, uint16_t samples);

#endif

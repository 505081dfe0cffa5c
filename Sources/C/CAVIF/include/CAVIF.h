#ifndef CAVIF_H
#define CAVIF_H
/* libavif, loaded on first use (see CLibraryLoader.h): the functions WebImageAVIF calls, as a
   table typed from <avif/avif.h>. Nothing links libavif. */

#include <avif/avif.h>
#include <stddef.h>

#include "CLibraryLoader.h"

#define WEBIMAGE_AVIF_FUNCTIONS(X)                                                                              \
    X(avifVersion) X(avifResultToString) X(avifDecoderCreate) X(avifDecoderDestroy) X(avifDecoderSetIOMemory)   \
    X(avifDecoderParse) X(avifDecoderReset) X(avifDecoderNextImage) X(avifDecoderNthImage)                      \
    X(avifDecoderNthImageTiming) X(avifDecoderNearestKeyframe) X(avifImageCreate) X(avifImageDestroy)          \
    X(avifImageRGBToYUV) X(avifImageYUVToRGB) X(avifRGBImageSetDefaults) X(avifEncoderCreate)                  \
    X(avifEncoderDestroy) X(avifEncoderAddImage) X(avifEncoderFinish) X(avifRWDataFree)                        \
    X(avifImageSetProfileICC) X(avifImageSetMetadataExif) X(avifImageSetMetadataXMP)

/* libavif's functions. */
typedef struct webimage_avif_api {
    WEBIMAGE_AVIF_FUNCTIONS(WEBIMAGE_LIBRARY_MEMBER)
} webimage_avif_api;

/* Loads libavif once per process and returns its table, or NULL with the reason in `message`. A
   library whose major or minor version differs from the headers' is refused (its structures may
   differ). */
const webimage_avif_api *_Nullable webimage_avif_load(char *_Nonnull message, size_t message_size);

#endif

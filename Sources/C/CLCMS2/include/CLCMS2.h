#ifndef CLCMS2_H
#define CLCMS2_H
/* Little CMS 2 (lcms2), loaded on first use (see CLibraryLoader.h): the colour-management
   functions WebImageColor calls, as a table typed from <lcms2.h>. Nothing links lcms2, so a
   command that never meets a colour profile does not map it. */

#include <lcms2.h>
#include <stddef.h>

#include "CLibraryLoader.h"

#define WEBIMAGE_LCMS2_FUNCTIONS(X)                                                                          \
    X(cmsGetEncodedCMMversion) X(cmsSetLogErrorHandler) X(cmsOpenProfileFromMem) X(cmsCloseProfile)         \
    X(cmsCreate_sRGBProfile) X(cmsCreateRGBProfile) X(cmsCreateGrayProfile) X(cmsBuildParametricToneCurve)  \
    X(cmsFreeToneCurve) X(cmsSaveProfileToMem) X(cmsGetColorSpace) X(cmsGetDeviceClass)                     \
    X(cmsGetProfileInfoASCII) X(cmsCreateTransform) X(cmsDeleteTransform) X(cmsDoTransform)                 \
    X(cmsDoTransformLineStride) X(cmsCreateLab4Profile) X(cmsCIE2000DeltaE)

/* lcms2's functions. */
typedef struct webimage_lcms2_api {
    WEBIMAGE_LCMS2_FUNCTIONS(WEBIMAGE_LIBRARY_MEMBER)
} webimage_lcms2_api;

/* Loads lcms2 once per process and returns its table, or NULL with the reason in `message`. A
   library older than the headers' major version is refused; its error log is silenced (errors
   come back as NULL handles and are reported by the caller). */
const webimage_lcms2_api *_Nullable webimage_lcms2_load(char *_Nonnull message, size_t message_size);

/* The pixel formats WebImageColor transforms (composite macros do not import into Swift). */
static const cmsUInt32Number webimage_lcms2_rgba8 = TYPE_RGBA_8;
static const cmsUInt32Number webimage_lcms2_rgb8 = TYPE_RGB_8;
static const cmsUInt32Number webimage_lcms2_cmyk8 = TYPE_CMYK_8;
static const cmsUInt32Number webimage_lcms2_cmyk8_reverse = TYPE_CMYK_8_REV;
static const cmsUInt32Number webimage_lcms2_gray8 = TYPE_GRAY_8;
static const cmsUInt32Number webimage_lcms2_ga8 = TYPE_GRAYA_8;
static const cmsUInt32Number webimage_lcms2_lab_double = TYPE_Lab_DBL;
static const cmsUInt32Number webimage_lcms2_rgb_double = TYPE_RGB_DBL;
static const cmsUInt32Number webimage_lcms2_gray_double = TYPE_GRAY_DBL;
static const cmsUInt32Number webimage_lcms2_cmyk_double = TYPE_CMYK_DBL;
static const cmsUInt32Number webimage_lcms2_rgb16 = TYPE_RGB_16;
static const cmsUInt32Number webimage_lcms2_rgba16 = TYPE_RGBA_16;
static const cmsUInt32Number webimage_lcms2_gray16 = TYPE_GRAY_16;
static const cmsUInt32Number webimage_lcms2_flags = cmsFLAGS_COPY_ALPHA | cmsFLAGS_NOCACHE;

#endif

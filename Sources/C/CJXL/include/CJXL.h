#ifndef CJXL_H
#define CJXL_H
/* libjxl, loaded on first use (see CLibraryLoader.h): the functions WebImageJXL calls, as a table
   typed from <jxl/decode.h> and <jxl/encode.h>. Nothing links libjxl (nor highway, brotli, lcms2). */

#include <jxl/decode.h>
#include <jxl/encode.h>
#include <jxl/version.h>
#include <stddef.h>

#include "CLibraryLoader.h"

#define WEBIMAGE_JXL_FUNCTIONS(X)                                                                               \
    X(JxlDecoderVersion) X(JxlDecoderCreate) X(JxlDecoderDestroy) X(JxlDecoderSubscribeEvents)                 \
    X(JxlDecoderSetInput) X(JxlDecoderCloseInput) X(JxlDecoderProcessInput) X(JxlDecoderGetBasicInfo)         \
    X(JxlDecoderGetFrameHeader) X(JxlDecoderImageOutBufferSize) X(JxlDecoderSetImageOutBuffer)                \
    X(JxlDecoderSetKeepOrientation) X(JxlDecoderSetPreferredColorProfile) X(JxlDecoderSetUnpremultiplyAlpha)  \
    X(JxlDecoderSkipCurrentFrame) X(JxlDecoderSkipFrames) X(JxlColorEncodingSetToSRGB) X(JxlEncoderCreate)    \
    X(JxlDecoderGetColorAsEncodedProfile) X(JxlDecoderGetICCProfileSize) X(JxlDecoderGetColorAsICCProfile)   \
    X(JxlEncoderDestroy) X(JxlEncoderFrameSettingsCreate) X(JxlEncoderGetError) X(JxlEncoderInitBasicInfo)    \
    X(JxlEncoderInitFrameHeader) X(JxlEncoderSetBasicInfo) X(JxlEncoderSetColorEncoding)                      \
    X(JxlEncoderSetFrameDistance) X(JxlEncoderSetFrameHeader) X(JxlEncoderSetFrameLossless)                   \
    X(JxlEncoderAddImageFrame) X(JxlEncoderCloseInput) X(JxlEncoderProcessOutput) X(JxlEncoderSetICCProfile)  \
    X(JxlEncoderUseContainer) X(JxlEncoderUseBoxes) X(JxlEncoderAddBox)                                     \
    X(JxlDecoderSetImageOutCallback)

/* libjxl's functions. */
typedef struct webimage_jxl_api {
    WEBIMAGE_JXL_FUNCTIONS(WEBIMAGE_LIBRARY_MEMBER)
} webimage_jxl_api;

/* Loads libjxl once per process and returns its table, or NULL with the reason in `message`. A
   library of another version than the headers' (major and minor) is refused. */
const webimage_jxl_api *_Nullable webimage_jxl_load(char *_Nonnull message, size_t message_size);

#endif

#include "CJXL.h"

#include <stdio.h>

static webimage_jxl_api table;
static const char *const symbols[] = {WEBIMAGE_JXL_FUNCTIONS(WEBIMAGE_LIBRARY_SYMBOL)};
_Static_assert(sizeof table == sizeof symbols / sizeof *symbols * sizeof(void *), "one pointer per function");

/* libjxl 0.x changes its soname with each minor version; JxlDecoderVersion is major*1e6 + minor*1e3 + patch. */
static int check(char *message, size_t message_size) {
    uint32_t found = table.JxlDecoderVersion();
    if (found / 1000000 == JPEGXL_MAJOR_VERSION && found / 1000 % 1000 == JPEGXL_MINOR_VERSION) return 0;
    snprintf(message, message_size, "libjxl %u.%u found, %d.%d expected", found / 1000000, found / 1000 % 1000,
             JPEGXL_MAJOR_VERSION, JPEGXL_MINOR_VERSION);
    return -1;
}

#define WEBIMAGE_STRING(x) #x
#define WEBIMAGE_SONAME(major, minor) "libjxl.so." WEBIMAGE_STRING(major) "." WEBIMAGE_STRING(minor)
static const char *const names[] = {"libjxl.so", WEBIMAGE_SONAME(JPEGXL_MAJOR_VERSION, JPEGXL_MINOR_VERSION),
                                    "libjxl.dylib", NULL};
static webimage_library library = {
    .names = names, .symbols = symbols, .slots = (void **)&table, .count = sizeof symbols / sizeof *symbols,
    .check = check, WEBIMAGE_LIBRARY_STATE};

const webimage_jxl_api *webimage_jxl_load(char *message, size_t message_size) {
    return webimage_library_open(&library, message, message_size) == 0 ? &table : NULL;
}

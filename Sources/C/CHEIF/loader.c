#include "CHEIF.h"

#include <stdio.h>

static webimage_heif_api table;
static const char *const symbols[] = {WEBIMAGE_HEIF_FUNCTIONS(WEBIMAGE_LIBRARY_SYMBOL)};
_Static_assert(sizeof table == sizeof symbols / sizeof *symbols * sizeof(void *), "one pointer per function");

/* libheif keeps its C ABI within a major version and adds to it in minor ones. */
static int check(char *message, size_t message_size) {
    int major = table.heif_get_version_number_major(), minor = table.heif_get_version_number_minor();
    int built_major = (LIBHEIF_NUMERIC_VERSION >> 24) & 0xff, built_minor = (LIBHEIF_NUMERIC_VERSION >> 16) & 0xff;
    if (major == built_major && minor >= built_minor) return 0;
    snprintf(message, message_size, "libheif %d.%d found, %d.%d or a later %d.x expected", major, minor, built_major,
             built_minor, built_major);
    return -1;
}

static const char *const names[] = {"libheif.so", "libheif.so.1", "libheif.dylib", NULL};
static webimage_library library = {
    .names = names, .symbols = symbols, .slots = (void **)&table, .count = sizeof symbols / sizeof *symbols,
    .check = check, WEBIMAGE_LIBRARY_STATE};

const webimage_heif_api *webimage_heif_load(char *message, size_t message_size) {
    return webimage_library_open(&library, message, message_size) == 0 ? &table : NULL;
}

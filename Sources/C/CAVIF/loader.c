#include "CAVIF.h"

#include <stdio.h>
#include <string.h>

static webimage_avif_api table;
static const char *const symbols[] = {WEBIMAGE_AVIF_FUNCTIONS(WEBIMAGE_LIBRARY_SYMBOL)};
_Static_assert(sizeof table == sizeof symbols / sizeof *symbols * sizeof(void *), "one pointer per function");

static int check(char *message, size_t message_size) {
    char expected[32];
    snprintf(expected, sizeof expected, "%d.%d.", AVIF_VERSION_MAJOR, AVIF_VERSION_MINOR);
    const char *found = table.avifVersion();
    if (found != NULL && strncmp(found, expected, strlen(expected)) == 0) return 0;
    snprintf(message, message_size, "libavif %s found, %d.%d expected", found ? found : "?", AVIF_VERSION_MAJOR,
             AVIF_VERSION_MINOR);
    return -1;
}

static const char *const names[] = {"libavif.so", "libavif.so.16", "libavif.so.15", "libavif.dylib", NULL};
static webimage_library library = {
    .names = names, .symbols = symbols, .slots = (void **)&table, .count = sizeof symbols / sizeof *symbols,
    .check = check, WEBIMAGE_LIBRARY_STATE};

const webimage_avif_api *webimage_avif_load(char *message, size_t message_size) {
    return webimage_library_open(&library, message, message_size) == 0 ? &table : NULL;
}

#include "CLCMS2.h"

#include <stdio.h>

static webimage_lcms2_api table;
static const char *const symbols[] = {WEBIMAGE_LCMS2_FUNCTIONS(WEBIMAGE_LIBRARY_SYMBOL)};
_Static_assert(sizeof table == sizeof symbols / sizeof *symbols * sizeof(void *), "one pointer per function");

/* lcms2 logs to stderr by default; its failures come back as NULL handles instead. */
static void quiet(cmsContext context, cmsUInt32Number code, const char *text) {
    (void)context;
    (void)code;
    (void)text;
}

static int check(char *message, size_t message_size) {
    int found = table.cmsGetEncodedCMMversion();
    if (found / 1000 != LCMS_VERSION / 1000 || found < 2080) {
        snprintf(message, message_size, "lcms2 %d found, 2.8 or later of major version %d expected", found,
                 LCMS_VERSION / 1000);
        return -1;
    }
    table.cmsSetLogErrorHandler(quiet);
    return 0;
}

static const char *const names[] = {"liblcms2.so.2", "liblcms2.so", "liblcms2.2.dylib", "liblcms2.dylib", NULL};
static webimage_library library = {
    .names = names, .symbols = symbols, .slots = (void **)&table, .count = sizeof symbols / sizeof *symbols,
    .check = check, WEBIMAGE_LIBRARY_STATE};

const webimage_lcms2_api *webimage_lcms2_load(char *message, size_t message_size) {
    return webimage_library_open(&library, message, message_size) == 0 ? &table : NULL;
}

#include "CSVGABICheck.h"

#include <stddef.h>

#include <cairo.h>
#include <gio/gio.h>
#include <librsvg/rsvg.h>

/* The shim's private header, beside it (not in its public include directory). */
#include "../../Sources/C/CSVGShim/webimage_librsvg_abi.h"

/* Exactly the same function types (the opaque structs share the libraries' tags; an enum is
   compatible with the integer type the compiler gives it). */
#define WEBIMAGE_EXACT(ret, name, params)                                                                    \
    _Static_assert(__builtin_types_compatible_p(webimage_svg_fn_##name, __typeof__(&name)), #name " differs");
WEBIMAGE_SVG_EXACT_FUNCTIONS(WEBIMAGE_EXACT)

/* The functions taking librsvg's anonymous structs, with our struct names read as librsvg's: the
   same types exactly once the structs (checked field by field below) stand for each other. */
#define webimage_RsvgLength RsvgLength
#define webimage_RsvgRectangle RsvgRectangle
#define WEBIMAGE_AS_REAL(ret, name, params) typedef ret(*webimage_real_fn_##name) params;
WEBIMAGE_SVG_LAYOUT_FUNCTIONS(WEBIMAGE_AS_REAL)
#define WEBIMAGE_LAYOUT(ret, name, params)                                                                   \
    _Static_assert(__builtin_types_compatible_p(webimage_real_fn_##name, __typeof__(&name)), #name " differs");
WEBIMAGE_SVG_LAYOUT_FUNCTIONS(WEBIMAGE_LAYOUT)
#undef webimage_RsvgLength
#undef webimage_RsvgRectangle

#define WEBIMAGE_SAME_FIELD(ours, theirs, field)                                                             \
    _Static_assert(offsetof(ours, field) == offsetof(theirs, field) &&                                        \
                       sizeof(((ours *)0)->field) == sizeof(((theirs *)0)->field),                           \
                   #theirs "." #field " differs");
_Static_assert(sizeof(webimage_RsvgLength) == sizeof(RsvgLength), "RsvgLength differs");
WEBIMAGE_SAME_FIELD(webimage_RsvgLength, RsvgLength, length)
WEBIMAGE_SAME_FIELD(webimage_RsvgLength, RsvgLength, unit)
_Static_assert(sizeof(webimage_RsvgRectangle) == sizeof(RsvgRectangle), "RsvgRectangle differs");
WEBIMAGE_SAME_FIELD(webimage_RsvgRectangle, RsvgRectangle, x)
WEBIMAGE_SAME_FIELD(webimage_RsvgRectangle, RsvgRectangle, y)
WEBIMAGE_SAME_FIELD(webimage_RsvgRectangle, RsvgRectangle, width)
WEBIMAGE_SAME_FIELD(webimage_RsvgRectangle, RsvgRectangle, height)
WEBIMAGE_SAME_FIELD(webimage_GError_fields, GError, domain)
WEBIMAGE_SAME_FIELD(webimage_GError_fields, GError, code)
WEBIMAGE_SAME_FIELD(webimage_GError_fields, GError, message)

/* The enumerators the shim spells as numbers. */
_Static_assert(WEBIMAGE_CAIRO_FORMAT_ARGB32 == CAIRO_FORMAT_ARGB32, "CAIRO_FORMAT_ARGB32 differs");
_Static_assert(WEBIMAGE_CAIRO_STATUS_SUCCESS == CAIRO_STATUS_SUCCESS, "CAIRO_STATUS_SUCCESS differs");
_Static_assert(WEBIMAGE_RSVG_HANDLE_FLAGS_NONE == RSVG_HANDLE_FLAGS_NONE, "RSVG_HANDLE_FLAGS_NONE differs");

#define WEBIMAGE_COUNT(ret, name, params) +1
int webimage_svg_abi_checked_functions(void) {
    return 0 WEBIMAGE_SVG_EXACT_FUNCTIONS(WEBIMAGE_COUNT) WEBIMAGE_SVG_LAYOUT_FUNCTIONS(WEBIMAGE_COUNT);
}

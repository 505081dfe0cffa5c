#ifndef WEBIMAGE_LIBRSVG_ABI_H
#define WEBIMAGE_LIBRSVG_ABI_H
/* The part of librsvg's, GLib's and cairo's C interface that the SVG shim calls, declared here
   because their headers need pkg-config's include paths, and pkg-config's link flags would map
   librsvg and its ~30 dependencies into every process at start. The shim loads librsvg on first
   use instead (CLibraryLoader). Every declaration below is compiled beside the libraries' own
   headers by the CSVGABICheck target (built with the SVG tests), which fails on any difference. */

#include <stddef.h>
#include <stdint.h>

/* Opaque objects: the same struct tags as the libraries' headers. */
typedef struct _RsvgHandle webimage_RsvgHandle;
typedef struct _GInputStream webimage_GInputStream;
typedef struct _GFile webimage_GFile;
typedef struct _GCancellable webimage_GCancellable;
typedef struct _GError webimage_GError;
typedef struct _cairo webimage_cairo_t;
typedef struct _cairo_surface webimage_cairo_surface_t;

/* GError's public fields (GLib's `struct _GError`). */
typedef struct {
    uint32_t domain;
    int code;
    char *message;
} webimage_GError_fields;

/* librsvg's RsvgLength and RsvgRectangle. */
typedef struct {
    double length;
    int unit;
} webimage_RsvgLength;
typedef struct {
    double x, y, width, height;
} webimage_RsvgRectangle;

/* Enumerators used: cairo's CAIRO_FORMAT_ARGB32 and CAIRO_STATUS_SUCCESS, RSVG_HANDLE_FLAGS_NONE. */
#define WEBIMAGE_CAIRO_FORMAT_ARGB32 0
#define WEBIMAGE_CAIRO_STATUS_SUCCESS 0u
#define WEBIMAGE_RSVG_HANDLE_FLAGS_NONE 0u

/* X(return type, name, parameters): functions whose types CSVGABICheck compares exactly. */
#define WEBIMAGE_SVG_EXACT_FUNCTIONS(X)                                                                          \
    X(webimage_GInputStream *, g_memory_input_stream_new_from_data,                                             \
      (const void *data, long length, void (*destroy)(void *)))                                                 \
    X(void, g_object_unref, (void *object))                                                                      \
    X(void, g_error_free, (webimage_GError * error))                                                             \
    X(webimage_RsvgHandle *, rsvg_handle_new_from_stream_sync,                                                   \
      (webimage_GInputStream * stream, webimage_GFile * base, unsigned int flags, webimage_GCancellable * cancel, \
       webimage_GError * *error))                                                                                \
    X(void, rsvg_handle_set_dpi, (webimage_RsvgHandle * handle, double dpi))                                     \
    X(int, rsvg_handle_get_intrinsic_size_in_pixels, (webimage_RsvgHandle * handle, double *width, double *height)) \
    X(int, cairo_format_stride_for_width, (int format, int width))                                               \
    X(webimage_cairo_surface_t *, cairo_image_surface_create_for_data,                                           \
      (unsigned char *data, int format, int width, int height, int stride))                                      \
    X(unsigned int, cairo_surface_status, (webimage_cairo_surface_t * surface))                                  \
    X(void, cairo_surface_flush, (webimage_cairo_surface_t * surface))                                           \
    X(void, cairo_surface_destroy, (webimage_cairo_surface_t * surface))                                         \
    X(webimage_cairo_t *, cairo_create, (webimage_cairo_surface_t * surface))                                    \
    X(void, cairo_scale, (webimage_cairo_t * cr, double sx, double sy))                                          \
    X(void, cairo_destroy, (webimage_cairo_t * cr))

/* Functions that take RsvgLength or RsvgRectangle (anonymous structs in librsvg's header): their
   other parameters are compared exactly and the structs' layouts field by field. */
#define WEBIMAGE_SVG_LAYOUT_FUNCTIONS(X)                                                                         \
    X(void, rsvg_handle_get_intrinsic_dimensions,                                                                \
      (webimage_RsvgHandle * handle, int *has_width, webimage_RsvgLength *width, int *has_height,                \
       webimage_RsvgLength *height, int *has_viewbox, webimage_RsvgRectangle *viewbox))                          \
    X(int, rsvg_handle_render_document,                                                                          \
      (webimage_RsvgHandle * handle, webimage_cairo_t * cr, const webimage_RsvgRectangle *viewport,              \
       webimage_GError **error))

#define WEBIMAGE_SVG_FUNCTION_TYPE(ret, name, params) typedef ret(*webimage_svg_fn_##name) params;
WEBIMAGE_SVG_EXACT_FUNCTIONS(WEBIMAGE_SVG_FUNCTION_TYPE)
WEBIMAGE_SVG_LAYOUT_FUNCTIONS(WEBIMAGE_SVG_FUNCTION_TYPE)
#undef WEBIMAGE_SVG_FUNCTION_TYPE

#endif

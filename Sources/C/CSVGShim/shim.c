#include "CSVGShim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "CLibraryLoader.h"
#include "webimage_librsvg_abi.h"

/* librsvg, loaded on first use; GLib's and cairo's functions resolve through its dependencies. */
static struct {
#define WEBIMAGE_SVG_MEMBER(ret, name, params) webimage_svg_fn_##name name;
    WEBIMAGE_SVG_EXACT_FUNCTIONS(WEBIMAGE_SVG_MEMBER) WEBIMAGE_SVG_LAYOUT_FUNCTIONS(WEBIMAGE_SVG_MEMBER)
#undef WEBIMAGE_SVG_MEMBER
} rsvg;

#define WEBIMAGE_SVG_NAME(ret, name, params) #name,
static const char *const symbols[] = {
    WEBIMAGE_SVG_EXACT_FUNCTIONS(WEBIMAGE_SVG_NAME) WEBIMAGE_SVG_LAYOUT_FUNCTIONS(WEBIMAGE_SVG_NAME)};
#undef WEBIMAGE_SVG_NAME
_Static_assert(sizeof rsvg == sizeof symbols / sizeof *symbols * sizeof(void *), "one pointer per function");

static const char *const names[] = {"librsvg-2.so.2", "librsvg-2.so", "librsvg-2.2.dylib", NULL};
static webimage_library library = {
    .names = names, .symbols = symbols, .slots = (void **)&rsvg, .count = sizeof symbols / sizeof *symbols,
    .check = NULL, WEBIMAGE_LIBRARY_STATE};

static int webimage_svg_load(char *message, size_t message_size) {
    return webimage_library_open(&library, message, message_size);
}

struct webimage_svg {
    webimage_RsvgHandle *handle;
};

static void set_message(char *message, size_t message_size, const char *prefix, webimage_GError *error) {
    if (!message || message_size == 0) return;
    const char *reason = error ? ((webimage_GError_fields *)error)->message : NULL;
    snprintf(message, message_size, "%s%s%s", prefix, reason ? ": " : "", reason ? reason : "");
}

webimage_svg *webimage_svg_open(const void *data, size_t size, char *message, size_t message_size) {
    if (webimage_svg_load(message, message_size) != 0) return NULL;
    webimage_GError *error = NULL;
    /* The stream borrows `data`; librsvg reads it all before returning. */
    webimage_GInputStream *stream = rsvg.g_memory_input_stream_new_from_data(data, (long)size, NULL);
    webimage_RsvgHandle *handle =
        rsvg.rsvg_handle_new_from_stream_sync(stream, NULL, WEBIMAGE_RSVG_HANDLE_FLAGS_NONE, NULL, &error);
    rsvg.g_object_unref(stream);
    if (!handle) {
        set_message(message, message_size, "SVG document is unreadable", error);
        if (error) rsvg.g_error_free(error);
        return NULL;
    }
    rsvg.rsvg_handle_set_dpi(handle, 96.0);
    webimage_svg *svg = calloc(1, sizeof *svg);
    if (!svg) {
        rsvg.g_object_unref(handle);
        set_message(message, message_size, "out of memory", NULL);
        return NULL;
    }
    svg->handle = handle;
    return svg;
}

void webimage_svg_close(webimage_svg *svg) {
    if (!svg) return;
    rsvg.g_object_unref(svg->handle);
    free(svg);
}

webimage_svg_size_source webimage_svg_intrinsic_size(webimage_svg *svg, double *width, double *height) {
    double w = 0, h = 0;
    if (rsvg.rsvg_handle_get_intrinsic_size_in_pixels(svg->handle, &w, &h) && w > 0 && h > 0) {
        *width = w;
        *height = h;
        return WEBIMAGE_SVG_SIZE_DECLARED;
    }
    int has_width = 0, has_height = 0, has_viewbox = 0;
    webimage_RsvgLength length_w, length_h;
    webimage_RsvgRectangle viewbox = {0, 0, 0, 0};
    rsvg.rsvg_handle_get_intrinsic_dimensions(svg->handle, &has_width, &length_w, &has_height, &length_h, &has_viewbox,
                                         &viewbox);
    if (has_viewbox && viewbox.width > 0 && viewbox.height > 0) {
        *width = viewbox.width;
        *height = viewbox.height;
        return WEBIMAGE_SVG_SIZE_VIEWBOX;
    }
    return WEBIMAGE_SVG_SIZE_NONE;
}

int webimage_svg_render(webimage_svg *svg, double intrinsic_width, double intrinsic_height, uint8_t *rgba, int width,
                        int height, char *message, size_t message_size) {
    if (width <= 0 || height <= 0 || intrinsic_width <= 0 || intrinsic_height <= 0 ||
        rsvg.cairo_format_stride_for_width(WEBIMAGE_CAIRO_FORMAT_ARGB32, width) != width * 4) {
        set_message(message, message_size, "SVG render size is out of range", NULL);
        return -1;
    }
    memset(rgba, 0, (size_t)width * (size_t)height * 4);
    webimage_cairo_surface_t *surface =
        rsvg.cairo_image_surface_create_for_data(rgba, WEBIMAGE_CAIRO_FORMAT_ARGB32, width, height, width * 4);
    if (rsvg.cairo_surface_status(surface) != WEBIMAGE_CAIRO_STATUS_SUCCESS) {
        set_message(message, message_size, "cairo cannot make a surface of that size", NULL);
        rsvg.cairo_surface_destroy(surface);
        return -1;
    }
    webimage_cairo_t *cr = rsvg.cairo_create(surface);
    rsvg.cairo_scale(cr, (double)width / intrinsic_width, (double)height / intrinsic_height);
    webimage_RsvgRectangle viewport = {0, 0, intrinsic_width, intrinsic_height};
    webimage_GError *error = NULL;
    int ok = rsvg.rsvg_handle_render_document(svg->handle, cr, &viewport, &error);
    rsvg.cairo_destroy(cr);
    rsvg.cairo_surface_flush(surface);
    rsvg.cairo_surface_destroy(surface);
    if (!ok) {
        set_message(message, message_size, "SVG document cannot be rendered", error);
        if (error) rsvg.g_error_free(error);
        return -1;
    }
    /* Cairo's ARGB32 is one native-endian 32-bit word a pixel, premultiplied: reorder to R, G, B, A. */
    size_t count = (size_t)width * (size_t)height;
    for (size_t i = 0; i < count; i++) {
        uint32_t pixel;
        memcpy(&pixel, rgba + 4 * i, 4);
        rgba[4 * i] = (uint8_t)(pixel >> 16);
        rgba[4 * i + 1] = (uint8_t)(pixel >> 8);
        rgba[4 * i + 2] = (uint8_t)pixel;
        rgba[4 * i + 3] = (uint8_t)(pixel >> 24);
    }
    return 0;
}

#include "CSVGShim.h"

#include <stdio.h>
#include <string.h>

#include <cairo.h>
#include <gio/gio.h>
#include <librsvg/rsvg.h>

struct webimage_svg {
    RsvgHandle *handle;
};

static void set_message(char *message, size_t message_size, const char *prefix, GError *error) {
    if (!message || message_size == 0) return;
    snprintf(message, message_size, "%s%s%s", prefix, error ? ": " : "", error ? error->message : "");
}

webimage_svg *webimage_svg_open(const void *data, size_t size, char *message, size_t message_size) {
    GError *error = NULL;
    /* The stream borrows `data`; librsvg reads it all before returning. */
    GInputStream *stream = g_memory_input_stream_new_from_data(data, (gssize)size, NULL);
    RsvgHandle *handle = rsvg_handle_new_from_stream_sync(stream, NULL, RSVG_HANDLE_FLAGS_NONE, NULL, &error);
    g_object_unref(stream);
    if (!handle) {
        set_message(message, message_size, "SVG document is unreadable", error);
        if (error) g_error_free(error);
        return NULL;
    }
    rsvg_handle_set_dpi(handle, 96.0);
    webimage_svg *svg = g_new0(webimage_svg, 1);
    svg->handle = handle;
    return svg;
}

void webimage_svg_close(webimage_svg *svg) {
    if (!svg) return;
    g_object_unref(svg->handle);
    g_free(svg);
}

webimage_svg_size_source webimage_svg_intrinsic_size(webimage_svg *svg, double *width, double *height) {
    double w = 0, h = 0;
    if (rsvg_handle_get_intrinsic_size_in_pixels(svg->handle, &w, &h) && w > 0 && h > 0) {
        *width = w;
        *height = h;
        return WEBIMAGE_SVG_SIZE_DECLARED;
    }
    gboolean has_width = FALSE, has_height = FALSE, has_viewbox = FALSE;
    RsvgLength length_w, length_h;
    RsvgRectangle viewbox = {0, 0, 0, 0};
    rsvg_handle_get_intrinsic_dimensions(svg->handle, &has_width, &length_w, &has_height, &length_h, &has_viewbox,
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
        cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, width) != width * 4) {
        set_message(message, message_size, "SVG render size is out of range", NULL);
        return -1;
    }
    memset(rgba, 0, (size_t)width * (size_t)height * 4);
    cairo_surface_t *surface = cairo_image_surface_create_for_data(rgba, CAIRO_FORMAT_ARGB32, width, height, width * 4);
    if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
        set_message(message, message_size, "cairo cannot make a surface of that size", NULL);
        cairo_surface_destroy(surface);
        return -1;
    }
    cairo_t *cr = cairo_create(surface);
    cairo_scale(cr, (double)width / intrinsic_width, (double)height / intrinsic_height);
    RsvgRectangle viewport = {0, 0, intrinsic_width, intrinsic_height};
    GError *error = NULL;
    gboolean ok = rsvg_handle_render_document(svg->handle, cr, &viewport, &error);
    cairo_destroy(cr);
    cairo_surface_flush(surface);
    cairo_surface_destroy(surface);
    if (!ok) {
        set_message(message, message_size, "SVG document cannot be rendered", error);
        if (error) g_error_free(error);
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

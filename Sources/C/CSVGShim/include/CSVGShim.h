#ifndef CSVGSHIM_H
#define CSVGSHIM_H
/* librsvg and cairo behind a small C interface, so that Swift never imports GLib. Documents are
   parsed from memory with no base file: librsvg then refuses every external reference (images,
   stylesheets, `use` of other files; only `data:` URLs load), so rendering never touches the
   network or the file system. Functions return 0 on success and -1 on failure, with the reason in
   `message` (at most `message_size` bytes, NUL-terminated). Nothing here prints. */

#include <stddef.h>
#include <stdint.h>

/* A parsed SVG document. Opaque to Swift. */
typedef struct webimage_svg webimage_svg;

/* Parses `size` bytes of SVG (librsvg's default limits on XML size and depth stay on). */
webimage_svg *webimage_svg_open(const void *data, size_t size, char *message, size_t message_size);
void webimage_svg_close(webimage_svg *svg);

/* How the document sizes itself. */
typedef enum {
    /* No usable width/height or viewBox. */
    WEBIMAGE_SVG_SIZE_NONE = 0,
    /* width and height in absolute or font units, converted to pixels at 96 dpi. */
    WEBIMAGE_SVG_SIZE_DECLARED = 1,
    /* The viewBox's width and height (width/height missing or in percent). */
    WEBIMAGE_SVG_SIZE_VIEWBOX = 2
} webimage_svg_size_source;

/* The document's intrinsic size in pixels, and where it came from. */
webimage_svg_size_source webimage_svg_intrinsic_size(webimage_svg *svg, double *width, double *height);

/* Renders the whole document, scaled from `intrinsic_width` x `intrinsic_height` to `width` x
   `height` (each axis on its own), into `rgba` (width * height * 4 bytes, cleared first) as
   premultiplied R, G, B, A bytes. */
int webimage_svg_render(webimage_svg *svg, double intrinsic_width, double intrinsic_height, uint8_t *rgba, int width,
                        int height, char *message, size_t message_size);

#endif

#ifndef CSVGABICHECK_H
#define CSVGABICHECK_H
/* Compiles the SVG shim's declarations of librsvg, GLib and cairo beside their real headers (see
   webimage_librsvg_abi.h): this target does not build when they differ. */

/* The number of functions compared (exactly or by layout); the SVG tests check it is every one the
   shim loads. */
int webimage_svg_abi_checked_functions(void);

#endif

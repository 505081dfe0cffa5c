#ifndef CSVG_SHIM_H
#define CSVG_SHIM_H
/* Only the shim target (CSVGShim) includes librsvg and cairo; Swift never sees GLib. */
#include <stddef.h>
#endif

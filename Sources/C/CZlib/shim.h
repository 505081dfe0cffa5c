#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H
/* zlib, for its CRC-32 (the disk cache's integrity check of each data file). */
#include <zlib.h>
#endif

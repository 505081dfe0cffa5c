#include "CJPEGShim.h"
int webimage_cjpeg_shim_version(void) { return 1; }

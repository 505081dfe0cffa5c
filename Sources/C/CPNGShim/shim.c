#include "CPNGShim.h"
int webimage_cpng_shim_version(void) { return 1; }

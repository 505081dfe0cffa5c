#ifndef CSIXEL_SHIM_H
#define CSIXEL_SHIM_H
#include <sixel/sixel.h>
#endif

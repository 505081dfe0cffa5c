#ifndef WEBIMAGE_PNG_READER_H
#define WEBIMAGE_PNG_READER_H
/* What the one-shot reader (shim.c) and the progressive reader (stream.c) share. Private. */
#include <png.h>
#include <stdint.h>

/* Limits (sides, chunk cache and size), ignored chunks and CRC handling, before IHDR is read. */
void webimage_png_configure_reader(png_structp png, uint64_t max_pixels);
/* After IHDR: every colour type and depth to 8-bit straight RGBA; returns the number of passes. */
int webimage_png_set_rgba_transforms(png_structp png, png_infop info, int keep_16);

#endif

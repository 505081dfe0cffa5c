#include "CPNGShim.h"

#include <zlib.h>

long webimage_png_inflate(const uint8_t *data, size_t size, uint8_t *out, size_t capacity) {
    z_stream stream = {0};
    if (size > UINT_MAX || capacity > UINT_MAX || inflateInit(&stream) != Z_OK) return -1;
    stream.next_in = (Bytef *)data;
    stream.avail_in = (uInt)size;
    stream.next_out = out;
    stream.avail_out = (uInt)capacity;
    int status = inflate(&stream, Z_FINISH);
    long produced = (long)stream.total_out;
    inflateEnd(&stream);
    if (status == Z_STREAM_END) return produced;
    /* Out of room with input left: more than `capacity` bytes. */
    if ((status == Z_BUF_ERROR || status == Z_OK) && stream.avail_out == 0) return -2;
    return -1;
}

long webimage_png_deflate(const uint8_t *data, size_t size, uint8_t *out, size_t capacity) {
    uLongf length = (uLongf)capacity;
    if (size > UINT_MAX || compress2(out, &length, data, (uLong)size, Z_BEST_COMPRESSION) != Z_OK) return -1;
    return (long)length;
}

size_t webimage_png_deflate_bound(size_t size) {
    return (size_t)compressBound((uLong)size);
}

#!/usr/bin/env bash
# Decodes the public corpus's valid PNGs (per manifest.json) with libpng, as WebImage asks it
# (expand, strip 16, grey to RGB, tRNS to alpha, RGBA out), and with libspng (SPNG_FMT_RGBA8,
# SPNG_DECODE_TRNS), on one thread, and prints megapixels per CPU second for each, the ratio and
# the files whose pixels differ. Then times zlib's and libdeflate's inflate alone on the
# png-decode benchmark file's IDAT stream, to show how much of a decode is decompression.
# SECONDS_EACH (default 0.2) is the time spent on each file per library. Needs a C compiler,
# libpng-dev, zlib, and optionally libspng-dev and libdeflate-dev (skipped with a note if absent).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
corpus="${WEBIMAGE_CORPUS:-$(cd "$here/../.." && pwd)/shared/corpus/public}"
[[ -f "$corpus/manifest.json" ]] || { echo "corpus not found at $corpus (set WEBIMAGE_CORPUS)"; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cat >"$work/decode.c" <<'C'
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef HAVE_SPNG
#include <spng.h>
#endif
typedef struct { const unsigned char *data; size_t size, at; } source;
static void read_bytes(png_structp png, png_bytep out, png_size_t count) {
    source *s = png_get_io_ptr(png);
    if (s->at + count > s->size) png_error(png, "truncated");
    memcpy(out, s->data + s->at, count);
    s->at += count;
}
static void quiet(png_structp png, png_const_charp message) { (void)png; (void)message; }
static double cpu(void) { struct timespec t; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static unsigned char *with_libpng(const unsigned char *data, size_t size, unsigned *w, unsigned *h) {
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, 0, 0, quiet);
    png_infop info = png_create_info_struct(png);
    unsigned char *volatile out = 0;
    source s = {data, size, 0};
    if (setjmp(png_jmpbuf(png))) { png_destroy_read_struct(&png, &info, 0); free(out); return 0; }
    png_set_read_fn(png, &s, read_bytes);
    png_read_info(png, info);
    *w = png_get_image_width(png, info); *h = png_get_image_height(png, info);
    int type = png_get_color_type(png, info);
    png_set_expand(png); png_set_strip_16(png); png_set_gray_to_rgb(png);
    if (!(type & 4) && !png_get_valid(png, info, PNG_INFO_tRNS)) png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    out = malloc((size_t)*w * *h * 4);
    png_bytep *rows = malloc(sizeof(png_bytep) * *h);
    for (unsigned y = 0; y < *h; y++) rows[y] = out + (size_t)y * *w * 4;
    png_read_image(png, rows);
    free(rows);
    png_destroy_read_struct(&png, &info, 0);
    return out;
}
#ifdef HAVE_SPNG
static unsigned char *with_spng(const unsigned char *data, size_t size, unsigned *w, unsigned *h) {
    spng_ctx *ctx = spng_ctx_new(0);
    struct spng_ihdr ihdr;
    size_t length;
    unsigned char *out = 0;
    spng_set_png_buffer(ctx, data, size);
    if (spng_get_ihdr(ctx, &ihdr) == 0 && spng_decoded_image_size(ctx, SPNG_FMT_RGBA8, &length) == 0) {
        out = malloc(length);
        if (spng_decode_image(ctx, out, length, SPNG_FMT_RGBA8, SPNG_DECODE_TRNS)) { free(out); out = 0; }
        *w = ihdr.width; *h = ihdr.height;
    }
    spng_ctx_free(ctx);
    return out;
}
#endif
int main(int argc, char **argv) {
    double seconds = atof(argv[1]), pixels[2] = {0, 0}, spent[2] = {0, 0};
    int files = 0, differ = 0, libraries = 1;
    unsigned char *(*decode[2])(const unsigned char *, size_t, unsigned *, unsigned *) = {with_libpng, 0};
#ifdef HAVE_SPNG
    decode[1] = with_spng; libraries = 2;
#endif
    for (int i = 2; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) continue;
        fseek(f, 0, SEEK_END); long size = ftell(f); rewind(f);
        unsigned char *data = malloc(size);
        size_t got = fread(data, 1, size, f); fclose(f);
        unsigned w = 0, h = 0, w2 = 0, h2 = 0;
        unsigned char *a = decode[0](data, got, &w, &h), *b = libraries > 1 ? decode[1](data, got, &w2, &h2) : 0;
        if (!a || (libraries > 1 && !b)) { free(a); free(b); free(data); continue; }
        if (b && (w != w2 || h != h2 || memcmp(a, b, (size_t)w * h * 4))) { differ++; printf("pixels differ: %s\n", argv[i]); }
        free(a); free(b); files++;
        for (int k = 0; k < libraries; k++) {
            double start = cpu(); int runs = 0;
            do { unsigned ww, hh; free(decode[k](data, got, &ww, &hh)); runs++; } while (cpu() - start < seconds);
            spent[k] += cpu() - start; pixels[k] += (double)w * h * runs;
        }
        free(data);
    }
    printf("%d files: libpng %.1f Mpx per CPU s", files, pixels[0] / spent[0] / 1e6);
    if (libraries > 1) printf(", libspng %.1f (%.2f× libpng), %d differ", pixels[1] / spent[1] / 1e6, (pixels[1] / spent[1]) / (pixels[0] / spent[0]), differ);
    else printf(" (libspng-dev not installed)");
    printf("\n");
    return 0;
}
C

cat >"$work/inflate.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>
#ifdef HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif
static double cpu(void) { struct timespec t; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
static unsigned be32(const unsigned char *p) { return (unsigned)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3]; }
int main(int argc, char **argv) {
    (void)argc;
    FILE *f = fopen(argv[1], "rb");
    fseek(f, 0, SEEK_END); long size = ftell(f); rewind(f);
    unsigned char *data = malloc(size), *idat = malloc(size);
    size_t got = fread(data, 1, size, f), stream = 0; fclose(f);
    for (size_t at = 8; at + 12 <= got; at += 12 + be32(data + at))
        if (!memcmp(data + at + 4, "IDAT", 4)) { memcpy(idat + stream, data + at + 8, be32(data + at)); stream += be32(data + at); }
    unsigned w = be32(data + 16), h = be32(data + 20), channels[] = {1, 0, 3, 1, 2, 0, 4};
    size_t raw = (size_t)h * (w * channels[data[25]] * (data[24] / 8) + 1);
    unsigned char *out = malloc(raw);
    for (int k = 0; k < 2; k++) {
        double start = cpu(); int runs = 0;
#ifndef HAVE_LIBDEFLATE
        if (k) { printf("libdeflate: not installed\n"); break; }
#else
        struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
#endif
        do {
            if (!k) { uLongf length = raw; uncompress(out, &length, idat, stream); }
#ifdef HAVE_LIBDEFLATE
            else { size_t length; libdeflate_zlib_decompress(d, idat, stream, out, raw, &length); }
#endif
            runs++;
        } while (cpu() - start < 2);
        double each = (cpu() - start) / runs;
        printf("%s inflate of %s: %.2f ms (%.0f Mpx per CPU s)\n", k ? "libdeflate" : "zlib", argv[1], each * 1e3, w * (double)h / each / 1e6);
    }
    return 0;
}
C

extra=() extra_libs=()
[[ -f /usr/include/spng.h ]] && { extra+=(-DHAVE_SPNG); extra_libs+=(-lspng); }
cc -O2 "${extra[@]}" -o "$work/decode" "$work/decode.c" -lpng "${extra_libs[@]}"
deflate=() deflate_libs=()
[[ -f /usr/include/libdeflate.h ]] && { deflate+=(-DHAVE_LIBDEFLATE); deflate_libs+=(-ldeflate); }
cc -O2 "${deflate[@]}" -o "$work/inflate" "$work/inflate.c" -lz "${deflate_libs[@]}"

mapfile -t files < <(python3 - "$corpus" <<'PY'
import json, os, sys
corpus = sys.argv[1]
manifest = json.load(open(os.path.join(corpus, "manifest.json")))
for entry in manifest["files"]:
    if entry["format"] == "png" and entry["expected_validity"] == "valid":
        print(os.path.join(corpus, entry["file"]))
PY
)
bench="$corpus/image-png/benches/Fantasy_Digital_Painting.png"
echo "png-decode file ($(basename "$bench")):"
"$work/decode" "${SECONDS_EACH:-2}" "$bench"
echo "every valid corpus PNG (${#files[@]}):"
"$work/decode" "${SECONDS_EACH:-0.2}" "${files[@]}"
"$work/inflate" "$bench"

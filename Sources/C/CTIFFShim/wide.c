#include "CTIFFShim.h"

#include <tiffio.h>

#include "reader.h"

/* ---- 16-bit RGB strips and tiles, for colour management at full precision ------------------- */

int webimage_tiff_wide_band_rows(webimage_tiff *t) {
    TIFF *tif = t->tif;
    uint32_t width = 0, height = 0, rows = 0, tile_width = 0;
    uint16_t bits = 1, samples = 1, photometric = 0, planar = PLANARCONFIG_CONTIG, compression = 1;
    uint16_t format = SAMPLEFORMAT_UINT;
    if (!TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &width) || !TIFFGetField(tif, TIFFTAG_IMAGELENGTH, &height)) return 0;
    TIFFGetFieldDefaulted(tif, TIFFTAG_BITSPERSAMPLE, &bits);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &samples);
    TIFFGetFieldDefaulted(tif, TIFFTAG_PLANARCONFIG, &planar);
    TIFFGetFieldDefaulted(tif, TIFFTAG_COMPRESSION, &compression);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLEFORMAT, &format);
    if (!TIFFGetField(tif, TIFFTAG_PHOTOMETRIC, &photometric) ||
        (photometric != PHOTOMETRIC_RGB && photometric != PHOTOMETRIC_MINISBLACK))
        return 0;
    if (bits != 16 || format != SAMPLEFORMAT_UINT || planar != PLANARCONFIG_CONTIG || compression == COMPRESSION_OJPEG ||
        compression == COMPRESSION_JPEG)
        return 0;
    int alpha = webimage_tiff_alpha_kind(tif, photometric, samples);
    int colour = photometric == PHOTOMETRIC_RGB ? 3 : 1;
    /* Associated alpha keeps libtiff's path: colours times coverage are not colours. */
    if (!(samples == colour || (samples == colour + 1 && alpha == EXTRASAMPLE_UNASSALPHA))) return 0;
    if (TIFFIsTiled(tif)) {
        if (!TIFFGetField(tif, TIFFTAG_TILEWIDTH, &tile_width) || !TIFFGetField(tif, TIFFTAG_TILELENGTH, &rows)) return 0;
        tmsize_t tile_size = TIFFTileSize(tif);
        if (tile_width == 0 || rows == 0 || tile_size <= 0 ||
            (uint64_t)tile_size < (uint64_t)tile_width * rows * samples * 2)
            return 0;
        /* A band is one row of tiles, cut to the image. */
        if (rows > height) rows = height;
    } else {
        TIFFGetFieldDefaulted(tif, TIFFTAG_ROWSPERSTRIP, &rows);
        if (rows == 0 || rows > height) rows = height;
        tmsize_t strip_size = TIFFStripSize(tif);
        if (strip_size <= 0 || (uint64_t)strip_size < (uint64_t)width * samples * 2 * rows) return 0;
    }
    return (int)(rows > INT32_MAX ? INT32_MAX : rows);
}

/* `count` pixels of `samples` 16-bit samples to RGBA16: grey (1), grey + alpha (2), RGB (3) or RGBA
   (4); alpha 0xFFFF when there is none. */
static void expand_rgba16(const uint16_t *in, uint16_t *out, uint64_t count, uint16_t samples) {
    int grey = samples < 3;
    for (uint64_t i = 0; i < count; i++, in += samples, out += 4) {
        uint16_t r = in[0], g = grey ? in[0] : in[1], b = grey ? in[0] : in[2];
        uint16_t a = samples == 2 ? in[1] : samples == 4 ? in[3] : 0xFFFF;
        out[0] = r;
        out[1] = g;
        out[2] = b;
        out[3] = a;
    }
}

static int read_tile_row16(webimage_tiff *t, uint32_t width, uint16_t samples, uint32_t first_row, uint32_t rows,
                           uint16_t *rgba16) {
    TIFF *tif = t->tif;
    uint32_t tile_width = 0, tile_length = 0;
    TIFFGetField(tif, TIFFTAG_TILEWIDTH, &tile_width);
    TIFFGetField(tif, TIFFTAG_TILELENGTH, &tile_length);
    tmsize_t tile_size = TIFFTileSize(tif);
    uint16_t *tile = _TIFFmalloc(tile_size);
    if (!tile) {
        webimage_tiff_record_text(&t->errors, "out of memory for a tile");
        return -1;
    }
    int result = 0;
    for (uint32_t x = 0; x < width; x += tile_width) {
        if (TIFFReadEncodedTile(tif, TIFFComputeTile(tif, x, first_row, 0, 0), tile, tile_size) < tile_size) {
            webimage_tiff_record_text(&t->errors, "a tile is truncated or corrupt");
            result = -1;
            break;
        }
        uint32_t columns = width - x < tile_width ? width - x : tile_width;
        for (uint32_t y = 0; y < rows && y < tile_length; y++) {
            expand_rgba16(tile + (uint64_t)y * tile_width * samples, rgba16 + ((uint64_t)y * width + x) * 4, columns, samples);
        }
    }
    _TIFFfree(tile);
    return result;
}

int webimage_tiff_read_band16(webimage_tiff *t, uint32_t first_row, uint32_t rows, uint16_t *rgba16) {
    TIFF *tif = t->tif;
    uint32_t width = 0;
    uint16_t samples = 1;
    TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, &width);
    TIFFGetFieldDefaulted(tif, TIFFTAG_SAMPLESPERPIXEL, &samples);
    if (TIFFIsTiled(tif)) return read_tile_row16(t, width, samples, first_row, rows, rgba16);
    uint64_t row_samples = (uint64_t)width * samples;
    tmsize_t wanted = (tmsize_t)(row_samples * 2 * rows);
    /* The strip is decoded into the end of the band (it is never larger than the RGBA16 rows) and
       expanded forwards: each pixel's output starts at or before its input. */
    uint16_t *strip = rgba16 + ((uint64_t)width * 4 - row_samples) * rows;
    tmsize_t got = TIFFReadEncodedStrip(tif, TIFFComputeStrip(tif, first_row, 0), strip, wanted);
    if (got < wanted) {
        webimage_tiff_record_text(&t->errors, "a strip is truncated or corrupt");
        return -1;
    }
    if (samples != 4) expand_rgba16(strip, rgba16, (uint64_t)width * rows, samples);
    return 0;
}

#!/usr/bin/env bash
# Installs the C codec libraries WebImage links (and, with --tools, the command-line decoders the
# round-trip tests cross-check against) when they are missing. Debian/Ubuntu: apt-get. macOS: prints
# the Homebrew line. Idempotent: does nothing when everything is present.
set -euo pipefail

libs=(pkg-config libjpeg62-turbo-dev libpng-dev libgif-dev libwebp-dev libsqlite3-dev)
tools=(libjpeg-turbo-progs webp netpbm)
# JPEG XL, TIFF and SVG (issue 13); tools: djxl/cjxl, tiffcp/tiffinfo, rsvg-convert.
libs+=(libjxl-dev libtiff-dev librsvg2-dev)
tools+=(libjxl-tools libtiff-tools librsvg2-bin)
# AVIF (libavif: dav1d/aom decoders, aom/rav1e/svt encoders) and HEIF/HEIC (libheif: libde265, x265);
# tools: avifenc/avifdec, heif-enc/heif-convert (the AVIF/HEIC benchmark).
libs+=(libavif-dev libheif-dev)
tools+=(libavif-bin libheif-examples)
# Colour management (issue 26): Little CMS 2, loaded on first use. Tool: exiftool, an independent
# reader of the profiles and XMP written into GIF and HEIC (Pillow reads neither from a GIF).
libs+=(liblcms2-dev)
tools+=(libimage-exiftool-perl)
# The standard CMYK profile for CMYK JPEGs that embed none: Ghostscript's default_cmyk.icc.
libs+=(libgs-common)
# Sixel graphics for `webimage show` (issue 15); tool: img2sixel.
libs+=(libsixel-dev)
tools+=(libsixel-bin)
# The Redis tier and the fleet (issue 17): the tests start their own redis-server and nginx on free
# loopback ports (never the system services); wrk for Benchmarks/fleet-compare.sh.
services=(redis-server nginx)
tools+=(wrk)
# s3:// sources (issue 28): the end-to-end tests start moto's S3 server (PyPI: moto[server]) on a
# free loopback port; pip comes from python3-pip.
tools+=(python3-pip)
wanted=("${libs[@]}" "${services[@]}")
[[ "${1:-}" == "--tools" ]] && wanted+=("${tools[@]}")

# moto's server mode for the S3 tests, with --tools, when python3 lacks it (after any apt-get below).
install_moto() {
    [[ "${1:-}" == "--tools" ]] || return 0
    command -v python3 >/dev/null 2>&1 || return 0
    python3 -c "import moto.server, flask, werkzeug" >/dev/null 2>&1 && return 0
    echo "Installing moto[server] (pip) for the S3 end-to-end tests"
    python3 -m pip install -q 'moto[server]' 2>/dev/null \
        || python3 -m pip install -q --user --break-system-packages 'moto[server]'
}

if [[ "$(uname -s)" == "Darwin" ]]; then
    echo "macOS: install the codec libraries with:  brew install pkg-config jpeg-turbo libpng giflib webp sqlite jpeg-xl libtiff librsvg libavif libheif little-cms2 libsixel redis nginx"
    install_moto "${1:-}"
    exit 0
fi
if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "Not a Debian/Ubuntu system: install libjpeg-turbo, libpng, giflib, libwebp (with demux/mux), libjxl, libtiff, librsvg, libavif, libheif and libsixel development packages, and redis-server and nginx." >&2
    install_moto "${1:-}"
    exit 0
fi

# libheif 1.16 and newer (Ubuntu 24.04, Debian 13) ship its codecs as plugins: HEVC decode and encode.
for plugin in libheif-plugin-libde265 libheif-plugin-x265; do
    apt-cache show "$plugin" >/dev/null 2>&1 && wanted+=("$plugin")
done

missing=()
for pkg in "${wanted[@]}"; do
    # Ubuntu names libjpeg-turbo's dev package libjpeg-turbo8-dev; libjpeg-dev pulls in the right one.
    if [[ "$pkg" == libjpeg62-turbo-dev ]] && ! apt-cache show libjpeg62-turbo-dev >/dev/null 2>&1; then pkg=libjpeg-dev; fi
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [[ ${#missing[@]} -eq 0 ]]; then
    install_moto "${1:-}"
    exit 0
fi

sudo=""
[[ "$(id -u)" -ne 0 ]] && sudo="sudo"
echo "Installing system packages: ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
install_moto "${1:-}"

/* webimage-svg-render [--address-space BYTES] [--cpu-seconds N]

   Parses and renders one SVG document with librsvg in a process of its own, so that a document
   that makes librsvg abort (librsvg 2.54 is Rust: a panic cannot unwind through its C API, so the
   process aborts) or run away takes down this process only. WebImageSVG's SVGRenderProcess starts
   one per document and reads a crash as a typed error for that image.

   Before anything is parsed it limits itself: address space (RLIMIT_AS), CPU time (RLIMIT_CPU: the
   kernel stops it with SIGXCPU, then SIGKILL a second later) and no core file.

   The conversation, over standard input and output (native byte order; both ends are on one machine):
     in:  u64 length, then the document's bytes
     out: u32 status; 0: i32 size source (webimage_svg_size_source), f64 width, f64 height
                      1: u32 length, then the reason (UTF-8)
     in:  i32 width, i32 height (0 x 0: nothing to render; exit 0), f64 intrinsic width, f64 intrinsic
          height (the size the document is scaled from: the caller's choice for unsized documents)
     out: u32 status; 0: width * height * 4 bytes of premultiplied R, G, B, A
                      1: u32 length, then the reason
   Nothing else is written to standard output; librsvg's own messages go to standard error. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "CSVGShim.h"

/* The largest document accepted (the service's source limit is far below). */
#define MAX_DOCUMENT (512u << 20)

static int read_all(int fd, void *buffer, size_t count) {
    uint8_t *bytes = buffer;
    while (count > 0) {
        ssize_t got = read(fd, bytes, count);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return -1;
        bytes += got;
        count -= (size_t)got;
    }
    return 0;
}

static int write_all(int fd, const void *buffer, size_t count) {
    const uint8_t *bytes = buffer;
    while (count > 0) {
        ssize_t put = write(fd, bytes, count);
        if (put < 0 && errno == EINTR) continue;
        if (put <= 0) return -1;
        bytes += put;
        count -= (size_t)put;
    }
    return 0;
}

static int reply_error(const char *reason) {
    uint32_t status = 1, length = (uint32_t)strlen(reason);
    if (write_all(1, &status, 4) != 0 || write_all(1, &length, 4) != 0 || write_all(1, reason, length) != 0) return 1;
    return 0;
}

static void limit(int resource, rlim_t soft, rlim_t hard) {
    struct rlimit value = {soft, hard};
    if (setrlimit(resource, &value) != 0) perror("webimage-svg-render: setrlimit");
}

int main(int argc, char **argv) {
    for (int i = 1; i + 1 < argc; i += 2) {
        unsigned long long value = strtoull(argv[i + 1], NULL, 10);
        if (strcmp(argv[i], "--address-space") == 0 && value > 0) {
            limit(RLIMIT_AS, (rlim_t)value, (rlim_t)value);
        } else if (strcmp(argv[i], "--cpu-seconds") == 0 && value > 0) {
            limit(RLIMIT_CPU, (rlim_t)value, (rlim_t)value + 1);
        }
    }
    limit(RLIMIT_CORE, 0, 0);

    uint64_t length = 0;
    if (read_all(0, &length, 8) != 0) return 1;
    if (length == 0 || length > MAX_DOCUMENT) return reply_error("SVG document is empty or over 512 MB");
    void *document = malloc((size_t)length);
    if (!document) return reply_error("out of memory for the document");
    if (read_all(0, document, (size_t)length) != 0) return 1;

    char message[512] = {0};
    webimage_svg *svg = webimage_svg_open(document, (size_t)length, message, sizeof message);
    if (!svg) return reply_error(message);
    double width = 0, height = 0;
    int32_t source = (int32_t)webimage_svg_intrinsic_size(svg, &width, &height);
    uint32_t ok = 0;
    if (write_all(1, &ok, 4) != 0 || write_all(1, &source, 4) != 0 || write_all(1, &width, 8) != 0 ||
        write_all(1, &height, 8) != 0)
        return 1;

    int32_t size[2];
    double intrinsic[2];
    if (read_all(0, size, sizeof size) != 0) return 1;
    if (size[0] == 0 && size[1] == 0) return 0;
    if (read_all(0, intrinsic, sizeof intrinsic) != 0) return 1;
    if (size[0] <= 0 || size[1] <= 0 || size[0] > 32767 || size[1] > 32767)
        return reply_error("SVG render size is out of range");
    size_t bytes = (size_t)size[0] * (size_t)size[1] * 4;
    uint8_t *rgba = malloc(bytes);
    if (!rgba) return reply_error("out of memory for the render");
    if (webimage_svg_render(svg, intrinsic[0], intrinsic[1], rgba, size[0], size[1], message, sizeof message) != 0)
        return reply_error(message);
    if (write_all(1, &ok, 4) != 0 || write_all(1, rgba, bytes) != 0) return 1;
    return 0;
}

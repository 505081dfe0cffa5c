#ifndef CLIBRARYLOADER_H
#define CLIBRARYLOADER_H
/* Loading a codec library on first use instead of at process start (dlopen/dlsym), so that a
   command that never meets an AVIF, HEIF, JPEG XL or SVG file does not pay for mapping and
   relocating those libraries and everything they depend on. Each codec's C target lists the
   functions it calls in an X-macro and fills a table of pointers typed from the library's header. */

#include <pthread.h>
#include <stddef.h>

/* One library to load: the file names to try, the symbols to resolve into `slots`, and a check of
   the loaded library's version against the headers the table was built with. */
typedef struct webimage_library {
    /* dlopen names in order of preference, NULL-terminated. */
    const char *const *names;
    /* Symbol names, one per slot. */
    const char *const *symbols;
    /* Where the resolved addresses go: the table, seen as an array of pointers. */
    void **slots;
    size_t count;
    /* Returns 0 when the loaded library is the one the headers describe, else -1 with the reason. */
    int (*check)(char *message, size_t message_size);
    /* Filled by webimage_library_open; initialise with WEBIMAGE_LIBRARY_STATE. */
    pthread_mutex_t lock;
    int state;
    char failure[512];
} webimage_library;

#define WEBIMAGE_LIBRARY_STATE .lock = PTHREAD_MUTEX_INITIALIZER, .state = 0

/* Loads `library` once per process (thread-safe). Returns 0, or -1 with the reason in `message`
   (at most `message_size` bytes, NUL-terminated). A library that failed once is not tried again.
   A loaded library stays loaded for the process's lifetime. */
int webimage_library_open(webimage_library *library, char *message, size_t message_size);

/* Declares a table member for each name of an X-macro list, typed from the function's declaration. */
#define WEBIMAGE_LIBRARY_MEMBER(name) __typeof__(name) *_Nonnull name;
/* The symbol's name, for the loader's list. */
#define WEBIMAGE_LIBRARY_SYMBOL(name) #name,

#endif

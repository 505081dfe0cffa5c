#include "CLibraryLoader.h"

#include <dlfcn.h>
#include <stdio.h>

/* 1: loaded; -1: failed (reason in `failure`); 0: not tried yet. */
static int load(webimage_library *library) {
    void *handle = NULL;
    char first[400] = {0};
    for (const char *const *name = library->names; *name != NULL && handle == NULL; name++) {
        handle = dlopen(*name, RTLD_NOW | RTLD_LOCAL);
        if (handle == NULL && first[0] == 0) {
            const char *reason = dlerror();
            snprintf(first, sizeof first, "%s", reason ? reason : *name);
        }
    }
    if (handle == NULL) {
        snprintf(library->failure, sizeof library->failure, "cannot load %s: %s", library->names[0], first);
        return -1;
    }
    for (size_t i = 0; i < library->count; i++) {
        void *symbol = dlsym(handle, library->symbols[i]);
        if (symbol == NULL) {
            snprintf(library->failure, sizeof library->failure, "%s has no function %s", library->names[0],
                     library->symbols[i]);
            return -1;
        }
        library->slots[i] = symbol;
    }
    if (library->check != NULL && library->check(library->failure, sizeof library->failure) != 0) return -1;
    return 1;
}

int webimage_library_open(webimage_library *library, char *message, size_t message_size) {
    pthread_mutex_lock(&library->lock);
    if (library->state == 0) library->state = load(library);
    int state = library->state;
    pthread_mutex_unlock(&library->lock);
    if (state == 1) return 0;
    if (message != NULL && message_size > 0) snprintf(message, message_size, "%s", library->failure);
    return -1;
}

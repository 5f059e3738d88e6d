#include "Loader.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *bt_open_library(bt_library_state *state, const char *variable, const char *soname, const char *what, const char *packages) {
    const char *name = getenv(variable);
    if (!name || !*name) name = soname;
    void *handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!handle)
        snprintf(state->error, sizeof state->error, "%s is not installed (%s): install the Debian package%s %s", what, name,
                 strchr(packages, ' ') ? "s" : "", packages);
    return handle;
}

void *bt_resolve(bt_library_state *state, void *const *handles, int count, const char *symbol, const char *packages) {
    for (int i = 0; i < count; i++) {
        void *p = dlsym(handles[i], symbol);
        if (p) return p;
    }
    snprintf(state->error, sizeof state->error, "the installed library lacks %s: install the Debian package%s %s", symbol,
             strchr(packages, ' ') ? "s" : "", packages);
    return NULL;
}

int bt_report(bt_library_state *state, char *error, int error_size) {
    if (!state->loaded && error && error_size > 0) {
        strncpy(error, state->error, (size_t)error_size - 1);
        error[error_size - 1] = 0;
    }
    return state->loaded;
}

void bt_unavailable(bt_library_state *state, const char *symbol) {
    fprintf(stderr, "beattag: %s called without its library: %s\n", symbol, state->error);
    abort();
}

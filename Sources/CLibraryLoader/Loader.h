// Shared by the per-library stub files: open a library by its soname (or the name in an
// environment variable, which tests use to hide one), resolve symbols, fail in one line.
#ifndef BEATTAG_LOADER_INTERNAL_H
#define BEATTAG_LOADER_INTERNAL_H

#include <pthread.h>

typedef struct {
    pthread_once_t once;
    int loaded;
    char error[512];
} bt_library_state;

#define BT_LIBRARY_STATE_INIT { PTHREAD_ONCE_INIT, 0, { 0 } }

// dlopen(getenv(variable) or soname); NULL with state->error set to "<what> is not installed
// (<name>): install the Debian package(s) <packages>".
void *bt_open_library(bt_library_state *state, const char *variable, const char *soname, const char *what, const char *packages);
// dlsym over the handles in order; NULL with state->error set when none has it.
void *bt_resolve(bt_library_state *state, void *const *handles, int count, const char *symbol, const char *packages);
// The load's result for Swift: 1, or 0 and the reason copied into error.
int bt_report(bt_library_state *state, char *error, int error_size);
// Called by a forwarding stub whose library failed to load: callers check bt_*_load first, so this
// is a bug; stop with the reason rather than jump to NULL.
void bt_unavailable(bt_library_state *state, const char *symbol) __attribute__((noreturn));

#endif

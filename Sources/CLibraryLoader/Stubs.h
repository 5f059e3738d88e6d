// Builds one library family's loader (BT_LIBRARY) from what its file defines first: FUNCTIONS(X, V),
// the functions, X(return type, name, (parameters), (arguments)) or V(name, (parameters),
// (arguments)) for void; PACKAGES, the Debian packages; and open_handles, which opens the
// libraries. BT_LIBRARY gives a pointer per function, a load that opens the libraries and resolves
// every function (or fails whole), the public bt_*_load, and a definition of each function under
// its own name that forwards to the library.
#ifndef BEATTAG_STUBS_H
#define BEATTAG_STUBS_H

#include "Loader.h"

#define BT_POINTER(ret, name, params, args) static ret(*p_##name) params;
#define BT_POINTER_VOID(name, params, args) static void(*p_##name) params;
#define BT_RESOLVE(ret, name, params, args) \
    if (!(*(void **)(&p_##name) = bt_resolve(&state, handles, (int)(sizeof handles / sizeof *handles), #name, PACKAGES))) return;
#define BT_RESOLVE_VOID(name, params, args) BT_RESOLVE(void, name, params, args)
#define BT_FORWARD(ret, name, params, args) \
    ret name params {                       \
        ensure(#name);                      \
        return p_##name args;               \
    }
#define BT_FORWARD_VOID(name, params, args) \
    void name params {                      \
        ensure(#name);                      \
        p_##name args;                      \
    }

#define BT_LIBRARY(public_load, handle_count)                               \
    static bt_library_state state = BT_LIBRARY_STATE_INIT;                  \
    FUNCTIONS(BT_POINTER, BT_POINTER_VOID)                                  \
    static void load(void) {                                                \
        void *handles[handle_count];                                        \
        if (!open_handles(&state, handles)) return;                         \
        FUNCTIONS(BT_RESOLVE, BT_RESOLVE_VOID)                              \
        state.loaded = 1;                                                   \
    }                                                                       \
    int public_load(char *error, int error_size) {                          \
        pthread_once(&state.once, load);                                    \
        return bt_report(&state, error, error_size);                        \
    }                                                                       \
    static inline void ensure(const char *symbol) {                         \
        pthread_once(&state.once, load);                                    \
        if (!state.loaded) bt_unavailable(&state, symbol);                  \
    }                                                                       \
    FUNCTIONS(BT_FORWARD, BT_FORWARD_VOID)

#endif

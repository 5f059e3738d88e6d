// libebur128, opened on first use: only the render measures loudness.
#include <ebur128.h>

#include "LibraryLoader.h"
#include "Stubs.h"

#define PACKAGES "libebur128-1"

#define FUNCTIONS(X, V)                                                                                      \
    X(int, ebur128_add_frames_float, (ebur128_state * st, const float *src, size_t frames), (st, src, frames)) \
    V(ebur128_destroy, (ebur128_state * *st), (st))                                                          \
    X(ebur128_state *, ebur128_init, (unsigned int channels, unsigned long rate, int mode), (channels, rate, mode)) \
    X(int, ebur128_loudness_global, (ebur128_state * st, double *out), (st, out))

static int open_handles(bt_library_state *state, void **handles) {
    return (handles[0] = bt_open_library(state, "BEATTAG_LIBEBUR128", "libebur128.so.1", "libebur128", PACKAGES)) != NULL;
}

BT_LIBRARY(bt_ebur128_load, 1)

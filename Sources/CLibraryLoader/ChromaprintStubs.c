// Chromaprint (the AcoustID fingerprinter), opened on first use through the shared loader
// (Loader.h): libchromaprint links FFmpeg, and commands that never fingerprint must not map it.
// Unlike the other libraries its functions are wrapped under bt_ names, not forwarded under their
// own: the wrappers fix the algorithm and tolerate a library that is not there, and libchromaprint
// calls its own functions, which an executable exporting the same names would intercept.
#include "ChromaprintLoader.h"
#include "Loader.h"
#include "Stubs.h"

#define PACKAGES "libchromaprint1"
// CHROMAPRINT_ALGORITHM_DEFAULT (TEST2) in chromaprint.h.
#define BT_CHROMAPRINT_ALGORITHM_DEFAULT 1

#define FUNCTIONS(X, V)                                                                                \
    X(void *, chromaprint_new, (int algorithm), (algorithm))                                          \
    V(chromaprint_free, (void *ctx), (ctx))                                                            \
    X(int, chromaprint_start, (void *ctx, int sample_rate, int channels), (ctx, sample_rate, channels)) \
    X(int, chromaprint_feed, (void *ctx, const int16_t *data, int size), (ctx, data, size))           \
    X(int, chromaprint_finish, (void *ctx), (ctx))                                                     \
    X(int, chromaprint_get_raw_fingerprint, (void *ctx, uint32_t **fingerprint, int *size), (ctx, fingerprint, size)) \
    X(int, chromaprint_hash_fingerprint, (const uint32_t *fingerprint, int size, uint32_t *hash), (fingerprint, size, hash)) \
    V(chromaprint_dealloc, (void *pointer), (pointer))

static bt_library_state state = BT_LIBRARY_STATE_INIT;
FUNCTIONS(BT_POINTER, BT_POINTER_VOID)

static void load(void) {
    void *handles[1];
    if (!(handles[0] = bt_open_library(&state, "BEATTAG_LIBCHROMAPRINT", "libchromaprint.so.1", "Chromaprint", PACKAGES))) return;
    FUNCTIONS(BT_RESOLVE, BT_RESOLVE_VOID)
    state.loaded = 1;
}

int bt_chromaprint_load(char *error, int error_size) {
    pthread_once(&state.once, load);
    return bt_report(&state, error, error_size);
}

void *bt_chromaprint_new(void) { return state.loaded ? p_chromaprint_new(BT_CHROMAPRINT_ALGORITHM_DEFAULT) : NULL; }
int bt_chromaprint_start(void *ctx, int sample_rate, int channels) { return p_chromaprint_start(ctx, sample_rate, channels); }
int bt_chromaprint_feed(void *ctx, const int16_t *data, int size) { return p_chromaprint_feed(ctx, data, size); }
int bt_chromaprint_finish(void *ctx) { return p_chromaprint_finish(ctx); }
int bt_chromaprint_get_raw(void *ctx, uint32_t **fingerprint, int *size) { return p_chromaprint_get_raw_fingerprint(ctx, fingerprint, size); }
int bt_chromaprint_hash(const uint32_t *fingerprint, int size, uint32_t *hash) {
    return state.loaded ? p_chromaprint_hash_fingerprint(fingerprint, size, hash) : 0;
}
void bt_chromaprint_dealloc(void *pointer) { if (state.loaded && pointer) p_chromaprint_dealloc(pointer); }
void bt_chromaprint_free(void *ctx) { if (state.loaded && ctx) p_chromaprint_free(ctx); }

#include "ChromaprintLoader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// CHROMAPRINT_ALGORITHM_DEFAULT (TEST2) in chromaprint.h.
#define BT_CHROMAPRINT_ALGORITHM_DEFAULT 1

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[512];
static int loaded;

static void *(*p_new)(int);
static void (*p_free)(void *);
static int (*p_start)(void *, int, int);
static int (*p_feed)(void *, const int16_t *, int);
static int (*p_finish)(void *);
static int (*p_get_raw)(void *, uint32_t **, int *);
static int (*p_hash)(const uint32_t *, int, uint32_t *);
static void (*p_dealloc)(void *);

static void load(void) {
    const char *name = getenv("BEATTAG_LIBCHROMAPRINT");
    if (!name || !*name) name = "libchromaprint.so.1";
    void *handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        snprintf(load_error, sizeof load_error, "Chromaprint is not installed (%s): install the Debian package libchromaprint1", name);
        return;
    }
#define BT_SYMBOL(var, symbol)                                                                        \
    *(void **)(&var) = dlsym(handle, symbol);                                                         \
    if (!var) {                                                                                       \
        snprintf(load_error, sizeof load_error, "%s lacks %s: install the Debian package libchromaprint1", name, symbol); \
        return;                                                                                       \
    }
    BT_SYMBOL(p_new, "chromaprint_new")
    BT_SYMBOL(p_free, "chromaprint_free")
    BT_SYMBOL(p_start, "chromaprint_start")
    BT_SYMBOL(p_feed, "chromaprint_feed")
    BT_SYMBOL(p_finish, "chromaprint_finish")
    BT_SYMBOL(p_get_raw, "chromaprint_get_raw_fingerprint")
    BT_SYMBOL(p_hash, "chromaprint_hash_fingerprint")
    BT_SYMBOL(p_dealloc, "chromaprint_dealloc")
#undef BT_SYMBOL
    loaded = 1;
}

int bt_chromaprint_load(char *error, int error_size) {
    pthread_once(&once, load);
    if (!loaded && error && error_size > 0) {
        strncpy(error, load_error, (size_t)error_size - 1);
        error[error_size - 1] = 0;
    }
    return loaded;
}

void *bt_chromaprint_new(void) { return loaded ? p_new(BT_CHROMAPRINT_ALGORITHM_DEFAULT) : NULL; }
int bt_chromaprint_start(void *ctx, int sample_rate, int channels) { return p_start(ctx, sample_rate, channels); }
int bt_chromaprint_feed(void *ctx, const int16_t *data, int size) { return p_feed(ctx, data, size); }
int bt_chromaprint_finish(void *ctx) { return p_finish(ctx); }
int bt_chromaprint_get_raw(void *ctx, uint32_t **fingerprint, int *size) { return p_get_raw(ctx, fingerprint, size); }
int bt_chromaprint_hash(const uint32_t *fingerprint, int size, uint32_t *hash) { return loaded ? p_hash(fingerprint, size, hash) : 0; }
void bt_chromaprint_dealloc(void *pointer) { if (loaded && pointer) p_dealloc(pointer); }
void bt_chromaprint_free(void *ctx) { if (loaded && ctx) p_free(ctx); }

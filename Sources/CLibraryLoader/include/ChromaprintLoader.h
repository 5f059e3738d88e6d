// Chromaprint (the AcoustID fingerprinter), opened with dlopen on first use: libchromaprint links
// FFmpeg, and commands that never fingerprint must not map it. Only the calls beattag makes.
#ifndef BEATTAG_CHROMAPRINT_LOADER_H
#define BEATTAG_CHROMAPRINT_LOADER_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

/// Loads the library once (thread-safe): 1 when ready; else 0 and `error` says why. The library's
/// file name is $BEATTAG_LIBCHROMAPRINT when set (tests hide it that way), else libchromaprint.so.1.
int bt_chromaprint_load(char *error, int error_size);

/// chromaprint_new(CHROMAPRINT_ALGORITHM_DEFAULT); NULL when not loaded.
void *bt_chromaprint_new(void);
int bt_chromaprint_start(void *ctx, int sample_rate, int channels);
int bt_chromaprint_feed(void *ctx, const int16_t *data, int size);
int bt_chromaprint_finish(void *ctx);
/// The raw fingerprint, to free with bt_chromaprint_dealloc.
int bt_chromaprint_get_raw(void *ctx, uint32_t **fingerprint, int *size);
/// chromaprint_hash_fingerprint: a 32-bit SimHash, close for similar fingerprints.
int bt_chromaprint_hash(const uint32_t *fingerprint, int size, uint32_t *hash);
void bt_chromaprint_dealloc(void *pointer);
void bt_chromaprint_free(void *ctx);

#ifdef __cplusplus
}
#endif
#endif

// espeak-ng, opened on first use: only spoken cues need it.
#include <espeak-ng/speak_lib.h>

#include "LibraryLoader.h"
#include "Stubs.h"

#define PACKAGES "libespeak-ng1"

#define FUNCTIONS(X, V)                                                                                                \
    X(int, espeak_Initialize, (espeak_AUDIO_OUTPUT output, int buflength, const char *path, int options),              \
      (output, buflength, path, options))                                                                              \
    X(espeak_ERROR, espeak_SetParameter, (espeak_PARAMETER parameter, int value, int relative), (parameter, value, relative)) \
    V(espeak_SetSynthCallback, (t_espeak_callback * callback), (callback))                                             \
    X(espeak_ERROR, espeak_SetVoiceByName, (const char *name), (name))                                                 \
    X(espeak_ERROR, espeak_Synth,                                                                                      \
      (const void *text, size_t size, unsigned int position, espeak_POSITION_TYPE position_type,                      \
       unsigned int end_position, unsigned int flags, unsigned int *unique_identifier, void *user_data),               \
      (text, size, position, position_type, end_position, flags, unique_identifier, user_data))

static int open_handles(bt_library_state *state, void **handles) {
    return (handles[0] = bt_open_library(state, "BEATTAG_LIBESPEAK_NG", "libespeak-ng.so.1", "espeak-ng", PACKAGES)) != NULL;
}

BT_LIBRARY(bt_espeak_load, 1)

// Rubber Band, opened on first use: only the render stretches.
#include <rubberband/rubberband-c.h>

#include "LibraryLoader.h"
#include "Stubs.h"

#define PACKAGES "librubberband2"

#define FUNCTIONS(X, V)                                                                                             \
    X(int, rubberband_available, (const RubberBandState s), (s))                                                    \
    V(rubberband_delete, (RubberBandState s), (s))                                                                  \
    X(RubberBandState, rubberband_new,                                                                              \
      (unsigned int rate, unsigned int channels, RubberBandOptions options, double time_ratio, double pitch_scale), \
      (rate, channels, options, time_ratio, pitch_scale))                                                           \
    V(rubberband_process, (RubberBandState s, const float *const *input, unsigned int samples, int final),         \
      (s, input, samples, final))                                                                                   \
    X(unsigned int, rubberband_retrieve, (const RubberBandState s, float *const *output, unsigned int samples),     \
      (s, output, samples))                                                                                         \
    V(rubberband_set_expected_input_duration, (RubberBandState s, unsigned int samples), (s, samples))              \
    V(rubberband_set_key_frame_map, (RubberBandState s, unsigned int count, unsigned int *from, unsigned int *to),  \
      (s, count, from, to))                                                                                         \
    V(rubberband_set_max_process_size, (RubberBandState s, unsigned int samples), (s, samples))                     \
    V(rubberband_study, (RubberBandState s, const float *const *input, unsigned int samples, int final),           \
      (s, input, samples, final))

static int open_handles(bt_library_state *state, void **handles) {
    return (handles[0] = bt_open_library(state, "BEATTAG_LIBRUBBERBAND", "librubberband.so.2", "Rubber Band", PACKAGES)) != NULL;
}

BT_LIBRARY(bt_rubberband_load, 1)

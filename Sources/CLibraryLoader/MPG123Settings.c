// libsndfile decodes MP3 through libmpg123 and has no setting for two of its habits, so
// libsndfile's call to mpg123_new is answered here: the real one, then these flags. The
// executable's symbol comes first for libsndfile (the linker exports it because libsndfile uses it).
// - MPG123_QUIET: libmpg123 prints resync notes on stderr ("Note: Illegal Audio-MPEG-Header …
//   Trying to resync…") for damaged frames, without a file name, over beattag's one-line reports.
// - MPG123_NO_RESYNC (unless bt_mpg123_read_past_damage(1) was called on this thread): at a damaged
//   frame libmpg123 skips ahead to the next frame it can find without saying so, and all that follows
//   comes a frame or more early. Stopping there with an error lets SndfileSource know where.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#include "MPG123Settings.h"

typedef struct mpg123_handle_struct mpg123_handle;

// mpg123.h (libmpg123-dev, not a dependency): enum mpg123_parms and mpg123_param_flags.
enum { BT_MPG123_ADD_FLAGS = 2, BT_MPG123_QUIET = 0x20, BT_MPG123_NO_RESYNC = 0x80, BT_MPG123_OK = 0, BT_MPG123_ERR = -1 };

static mpg123_handle *(*real_new)(const char *, int *);
static int (*real_param2)(mpg123_handle *, int, long, double);
static pthread_once_t looked_up = PTHREAD_ONCE_INIT;
// Per thread: libsndfile opens files from several threads at once, and sf_open calls mpg123_new on
// the caller's thread.
static __thread int read_past_damage;
// Handles set up here: none where the dynamic linker does not let the executable's symbol answer
// libsndfile's call (macOS's two-level namespace) or libmpg123 refused the flags; libmpg123 then
// keeps its own habits.
static atomic_long handles_set_up;

static void look_up(void) {
    real_new = (mpg123_handle * (*)(const char *, int *)) dlsym(RTLD_NEXT, "mpg123_new");
    real_param2 = (int (*)(mpg123_handle *, int, long, double))dlsym(RTLD_NEXT, "mpg123_param2");
}

void bt_mpg123_read_past_damage(int on) { read_past_damage = on; }

long bt_mpg123_handles_set_up(void) { return atomic_load(&handles_set_up); }

mpg123_handle *mpg123_new(const char *decoder, int *error) {
    pthread_once(&looked_up, look_up);
    if (real_new == NULL) {
        if (error != NULL) *error = BT_MPG123_ERR;
        return NULL;
    }
    mpg123_handle *handle = real_new(decoder, error);
    long flags = BT_MPG123_QUIET | (read_past_damage ? 0 : BT_MPG123_NO_RESYNC);
    if (handle != NULL && real_param2 != NULL && real_param2(handle, BT_MPG123_ADD_FLAGS, flags, 0) == BT_MPG123_OK) {
        atomic_fetch_add(&handles_set_up, 1);
    }
    return handle;
}

// libsndfile decodes MP3 through libmpg123, which prints its resync notes on stderr ("Note:
// Illegal Audio-MPEG-Header … Trying to resync…") for damaged frames, without a file name, over
// beattag's one-line reports. libsndfile has no setting for it, so libsndfile's call to
// mpg123_new is answered here: the real one, then its MPG123_QUIET flag. The executable's symbol
// comes first for libsndfile (the linker exports it because libsndfile uses it).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

typedef struct mpg123_handle_struct mpg123_handle;

// mpg123.h (libmpg123-dev, not a dependency): enum mpg123_parms and mpg123_param_flags.
enum { BT_MPG123_ADD_FLAGS = 2, BT_MPG123_QUIET = 0x20, BT_MPG123_ERR = -1 };

static mpg123_handle *(*real_new)(const char *, int *);
static int (*real_param2)(mpg123_handle *, int, long, double);
static pthread_once_t looked_up = PTHREAD_ONCE_INIT;

static void look_up(void) {
    real_new = (mpg123_handle * (*)(const char *, int *)) dlsym(RTLD_NEXT, "mpg123_new");
    real_param2 = (int (*)(mpg123_handle *, int, long, double))dlsym(RTLD_NEXT, "mpg123_param2");
}

mpg123_handle *mpg123_new(const char *decoder, int *error) {
    // libsndfile opens files from several threads at once.
    pthread_once(&looked_up, look_up);
    if (real_new == NULL) {
        if (error != NULL) *error = BT_MPG123_ERR;
        return NULL;
    }
    mpg123_handle *handle = real_new(decoder, error);
    if (handle != NULL && real_param2 != NULL) real_param2(handle, BT_MPG123_ADD_FLAGS, BT_MPG123_QUIET, 0);
    return handle;
}

#include <espeak-ng/speak_lib.h>
// Macros Swift does not import as typed constants.
static inline int beattag_espeak_dont_exit(void) { return espeakINITIALIZE_DONT_EXIT; }
static inline unsigned int beattag_espeak_utf8_endpause(void) { return espeakCHARS_UTF8 | espeakENDPAUSE; }

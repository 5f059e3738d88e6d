// The heavy optional libraries, opened with dlopen on first use instead of linked: a command that
// never decodes through FFmpeg, stretches, measures loudness or speaks never maps them (nor
// FFmpeg's network and video stack). Each bt_*_load returns 1 when the library is there, else 0
// and a one-line reason naming the Debian package. The functions the Swift code calls keep their
// own names (this target defines them and forwards to the library), so only the check is new.
#ifndef BEATTAG_LIBRARY_LOADER_H
#define BEATTAG_LIBRARY_LOADER_H

int bt_ffmpeg_load(char *error, int error_size);
int bt_rubberband_load(char *error, int error_size);
int bt_ebur128_load(char *error, int error_size);
int bt_espeak_load(char *error, int error_size);

// Chromaprint, through the same loader, under bt_chromaprint_… names.
#include "ChromaprintLoader.h"

#endif

// espeak-ng 1.51 (Debian 12) opens an audio device whenever it starts, whatever the output mode:
// its espeak_ng_InitializeOutput calls libpcaudio's create_audio_device_object, which tries
// PulseAudio, then ALSA, OSS, and so talks to the user's sound server (over TCP where PULSE_SERVER
// names one: a network connection from an offline tool). beattag only asks espeak for samples
// (synchronous mode), so the executable answers that call with "no device" (it exports this symbol,
// Package.swift, and a library's call looks in the executable first); every libpcaudio call
// espeak makes takes NULL as no device. espeak-ng 1.52 asks for a device only to play audio itself.
// (RenderWorkoutTests.testSpokenCuesConnectToNoSoundServer checks it from outside.)
#include <stddef.h>

struct audio_object;

struct audio_object *create_audio_device_object(const char *device, const char *application_name, const char *description) {
    (void)device;
    (void)application_name;
    (void)description;
    return NULL;
}

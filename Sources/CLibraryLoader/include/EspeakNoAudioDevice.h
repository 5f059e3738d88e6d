#ifndef BT_ESPEAK_NO_AUDIO_DEVICE_H
#define BT_ESPEAK_NO_AUDIO_DEVICE_H

// How many times a library (espeak-ng 1.51) asked for an audio device and was told there is none.
long bt_audio_devices_refused(void);

#endif

// How libsndfile's MP3 decoder (libmpg123) is set up: MPG123Settings.c.
#ifndef BEATTAG_MPG123_SETTINGS_H
#define BEATTAG_MPG123_SETTINGS_H

/// 1: files this thread opens next read past a damaged MP3 frame, as libmpg123 does by default
/// (skipping to the next frame it finds); 0 (the default): they stop there with an error.
void bt_mpg123_read_past_damage(int on);

/// How many libmpg123 handles got these settings so far in this process: 0 after an MP3 was opened
/// means the platform's linker did not route libsndfile's call here (ELF interposition, Linux), or
/// libmpg123 refused the flags.
long bt_mpg123_handles_set_up(void);

#endif

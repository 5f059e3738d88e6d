#ifndef BEATTAG_SIGNAL_PIPE_H
#define BEATTAG_SIGNAL_PIPE_H

/// Routes SIGINT, SIGTERM and SIGHUP into a pipe: the handler only write()s the signal number (async-signal-
/// safe), and an ordinary thread reads it. A signal ignored when the process started (nohup) stays ignored. Returns the pipe's read end (the same one on every call),
/// or -1 with errno set.
int bt_signal_pipe_install(void);

/// Gives the signals it took their default action back (the pipe stays open for the next install).
void bt_signal_pipe_restore(void);

#endif

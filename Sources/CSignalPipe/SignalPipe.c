// A signal handler may call almost nothing, and libdispatch's signal sources on Linux lose a signal
// now and then (one Ctrl-C in about thirty, measured on a render): the kernel hands a process signal
// to any thread that does not block it. A plain sigaction handler runs on whichever thread that is and
// only writes one byte, so no signal is lost.
#define _GNU_SOURCE  // pipe2
#include "SignalPipe.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static int pipe_fds[2] = {-1, -1};

static void on_signal(int signo) {
    int saved = errno;
    unsigned char byte = (unsigned char)signo;
    ssize_t ignored = write(pipe_fds[1], &byte, 1);  // a full pipe already holds a pending stop
    (void)ignored;
    errno = saved;
}

static int install(int signo, void (*handler)(int)) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    return sigaction(signo, &action, NULL);
}

// A signal the process was started with ignored stays ignored (`nohup beattag scan … &`, or a
// non-interactive shell's background job for SIGINT): taking it over would let a logout stop a
// scan that was meant to outlive it.
static const int routed[] = {SIGINT, SIGTERM, SIGHUP};
static int taken[3] = {0, 0, 0};

int bt_signal_pipe_install(void) {
    if (pipe_fds[0] < 0) {
        if (pipe2(pipe_fds, O_CLOEXEC) != 0) return -1;
        // The handler must never block: a full pipe drops the byte rather than hang the thread.
        fcntl(pipe_fds[1], F_SETFL, fcntl(pipe_fds[1], F_GETFL) | O_NONBLOCK);
    }
    for (int i = 0; i < 3; i++) {
        struct sigaction old;
        if (sigaction(routed[i], NULL, &old) != 0) return -1;
        if (old.sa_handler == SIG_IGN && !taken[i]) continue;
        if (install(routed[i], on_signal) != 0) return -1;
        taken[i] = 1;
    }
    return pipe_fds[0];
}

void bt_signal_pipe_restore(void) {
    for (int i = 0; i < 3; i++) {
        if (taken[i]) install(routed[i], SIG_DFL);
        taken[i] = 0;
    }
}

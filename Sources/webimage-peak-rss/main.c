/* webimage-peak-rss REPORT SECONDS COMMAND [ARGUMENT...]

   Runs COMMAND as a child of this small process and writes the child's peak resident set size in
   kilobytes (wait4's ru_maxrss) to the file REPORT, then exits with the child's status (128 + the
   signal when a signal ended it). The child is killed after SECONDS.

   The CLI's memory tests need this middleman: on Linux, ru_maxrss counts the memory of the process
   that called exec, and a child spawned straight from the large test process (posix_spawn shares
   its memory until exec) would report the test process's own peak. Forked from this process, the
   child starts from about a megabyte. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile pid_t child = 0;

static void on_alarm(int signal) {
    (void)signal;
    if (child > 0) kill(child, SIGKILL);
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: webimage-peak-rss REPORT SECONDS COMMAND [ARGUMENT...]\n");
        return 2;
    }
    const char *report = argv[1];
    unsigned seconds = (unsigned)strtoul(argv[2], NULL, 10);

    /* The spawning process may have blocked signals (Foundation's Process passes its thread's
       mask on): the alarm below and the command's own signal handling need them delivered. */
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);

    pid_t pid = fork();
    if (pid < 0) {
        perror("webimage-peak-rss: fork");
        return 2;
    }
    if (pid == 0) {
        /* Dies with this process, so that killing the launcher never leaves the command behind. */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        execv(argv[3], argv + 3);
        perror("webimage-peak-rss: exec");
        _exit(127);
    }
    child = pid;
    signal(SIGALRM, on_alarm);
    if (seconds > 0) alarm(seconds);

    int status = 0;
    struct rusage usage;
    while (wait4(pid, &status, 0, &usage) < 0) {
        if (errno != EINTR) {
            perror("webimage-peak-rss: wait4");
            return 2;
        }
    }
    FILE *file = fopen(report, "w");
    if (file == NULL) {
        perror("webimage-peak-rss: report");
        return 2;
    }
    fprintf(file, "%ld\n", usage.ru_maxrss);
    fclose(file);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}

// peak_rss COMMAND [ARGS...]: runs the command with this process's standard
// streams and prints, as the last line on stderr,
//   peak_rss_kib=N status=S
// where N is the child's peak resident set (wait4's ru_maxrss, KiB on Linux)
// and S its exit status (128 + signal if it was killed). It exits with the
// child's status. The memory tests use it (tests/node/memory_cli.test.mjs):
// neither /usr/bin/time nor python is sure to be on a fresh CI machine.
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: peak_rss COMMAND [ARGS...]\n");
    return 2;
  }
  const pid_t pid = fork();
  if (pid < 0) {
    std::fprintf(stderr, "peak_rss: fork: %s\n", std::strerror(errno));
    return 2;
  }
  if (pid == 0) {
    execvp(argv[1], argv + 1);
    std::fprintf(stderr, "peak_rss: cannot run '%s': %s\n", argv[1], std::strerror(errno));
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  while (wait4(pid, &status, 0, &usage) < 0) {
    if (errno != EINTR) {
      std::fprintf(stderr, "peak_rss: wait4: %s\n", std::strerror(errno));
      return 2;
    }
  }
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  std::fprintf(stderr, "peak_rss_kib=%ld status=%d\n", usage.ru_maxrss, code);
  return code;
}

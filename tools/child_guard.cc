#include "tools/child_guard.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>

#include "absl/strings/str_format.h"

namespace sstfilter {

ChildOutcome RunInChild(const std::function<int()>& body) {
  ChildOutcome outcome;
  std::fflush(stdout);  // Nothing buffered before the fork is printed twice.
  std::fflush(stderr);
  const pid_t pid = fork();
  if (pid < 0) {
    outcome.error = absl::StrFormat("cannot start a child process: %s", std::strerror(errno));
    return outcome;
  }
  if (pid == 0) {
    const rlimit no_core{0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    const int code = body();
    std::fflush(stdout);
    std::fflush(stderr);
    _exit(code);  // Not exit(): the parent's atexit handlers are the parent's.
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      outcome.error = absl::StrFormat("waiting for the child process: %s", std::strerror(errno));
      return outcome;
    }
  }
  if (WIFSIGNALED(status)) {
    outcome.term_signal = WTERMSIG(status);
  } else {
    outcome.exit_code = WEXITSTATUS(status);
  }
  return outcome;
}

namespace {

volatile std::sig_atomic_t output_closed = 0;

void NoteClosedOutput(int) { output_closed = 1; }

}  // namespace

void CatchClosedOutput() {
  struct sigaction action = {};
  action.sa_handler = NoteClosedOutput;
  action.sa_flags = SA_RESTART;
  sigemptyset(&action.sa_mask);
  sigaction(SIGPIPE, &action, nullptr);
}

bool OutputClosed() { return output_closed != 0; }

std::string SignalName(int signal) {
  switch (signal) {
    case SIGABRT: return "SIGABRT";
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGKILL: return "SIGKILL";
    case SIGPIPE: return "SIGPIPE";
    default: return absl::StrFormat("signal %d", signal);
  }
}

}  // namespace sstfilter

#include "tools/child_guard.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>

#include "absl/strings/escaping.h"
#include "absl/strings/str_format.h"

namespace sstfilter {

namespace {

// In the child: the pipe its terminate handler names an uncaught exception on.
int uncaught_fd = -1;

// The child's terminate handler: writes the what() of the exception nothing
// caught to the parent, then aborts as the default handler does. Allocates
// nothing (the exception may be std::bad_alloc).
[[noreturn]] void NameUncaughtAndAbort() {
  const char* words = "std::terminate without an exception";
  const std::exception_ptr current = std::current_exception();
  if (current) {
    try {
      std::rethrow_exception(current);
    } catch (const std::exception& e) {
      words = e.what();
    } catch (...) {
      words = "an exception of a type not derived from std::exception";
    }
  }
  if (uncaught_fd >= 0) (void)!write(uncaught_fd, words, std::strlen(words));
  std::abort();
}

// What the child wrote on `fd` before it ended (at most 512 bytes).
std::string ReadUncaught(int fd) {
  char buffer[512];
  ssize_t n;
  while ((n = read(fd, buffer, sizeof buffer)) < 0 && errno == EINTR) {
  }
  return n > 0 ? std::string(buffer, static_cast<size_t>(n)) : std::string();
}

}  // namespace

ChildOutcome RunInChild(const std::function<int()>& body) {
  ChildOutcome outcome;
  int words[2];
  if (pipe2(words, O_CLOEXEC | O_NONBLOCK) != 0) {
    outcome.error = absl::StrFormat("cannot make a pipe: %s", std::strerror(errno));
    return outcome;
  }
  std::fflush(stdout);  // Nothing buffered before the fork is printed twice.
  std::fflush(stderr);
  const pid_t pid = fork();
  if (pid < 0) {
    outcome.error = absl::StrFormat("cannot start a child process: %s", std::strerror(errno));
    close(words[0]);
    close(words[1]);
    return outcome;
  }
  if (pid == 0) {
    const rlimit no_core{0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    close(words[0]);
    uncaught_fd = words[1];
    std::set_terminate(NameUncaughtAndAbort);  // For other threads' exceptions.
    int code = 0;
    try {
      code = body();
    } catch (...) {  // Never unwound into the caller's frames, copied from the parent.
      NameUncaughtAndAbort();
    }
    std::fflush(stdout);
    std::fflush(stderr);
    _exit(code);  // Not exit(): the parent's atexit handlers are the parent's.
  }
  close(words[1]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      outcome.error = absl::StrFormat("waiting for the child process: %s", std::strerror(errno));
      close(words[0]);
      return outcome;
    }
  }
  if (WIFSIGNALED(status)) {
    outcome.term_signal = WTERMSIG(status);
    outcome.uncaught = ReadUncaught(words[0]);
  } else {
    outcome.exit_code = WEXITSTATUS(status);
  }
  close(words[0]);
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

std::string ChildDeath(const ChildOutcome& outcome, std::string_view what,
                       std::string_view otherwise) {
  if (outcome.uncaught == "std::bad_alloc") {
    return absl::StrFormat("ran out of memory (std::bad_alloc) while reading %s", what);
  }
  if (!outcome.uncaught.empty()) {
    return absl::StrFormat("stopped on an exception nothing caught ('%s') while reading %s",
                           absl::CHexEscape(outcome.uncaught), what);
  }
  if (outcome.term_signal == SIGKILL) {
    return absl::StrFormat(
        "was killed (SIGKILL: the kernel's out-of-memory killer, or a user) while reading %s",
        what);
  }
  return absl::StrFormat("RocksDB stopped with %s while reading %s: %s",
                         SignalName(outcome.term_signal), what, otherwise);
}

}  // namespace sstfilter

// Runs a piece of a tool in a forked child process, so that an abort inside
// a library the tool does not control (RocksDB keeps assert() on in some
// builds, Debian's among them, and asserts on fields of a table that no
// checksum covers) ends the child, not the tool: the tool then reports the
// damage and exits with its own status.
#ifndef SSTFILTER_TOOLS_CHILD_GUARD_H_
#define SSTFILTER_TOOLS_CHILD_GUARD_H_

#include <functional>
#include <string>
#include <string_view>

namespace sstfilter {

struct ChildOutcome {
  int exit_code = 0;     // The child's exit status, when term_signal is 0.
  int term_signal = 0;   // The signal that ended the child, or 0.
  // What ended the child when it was an exception nothing caught:
  // "std::bad_alloc" and the like (its what()), else empty.
  std::string uncaught;
  std::string error;     // Non-empty when no child could be started.
};

// Runs body() in a child process and waits for it. The child writes to the
// tool's stdout and stderr, dumps no core, and exits with body()'s result;
// an exception it does not catch ends it with SIGABRT, as it would end the
// tool, and is named in `uncaught`. What the child printed before dying is
// lost unless stdout is unbuffered or line-buffered (set it so at the start
// of main). When fork fails, error says why and body() is not run.
ChildOutcome RunInChild(const std::function<int()>& body);

// "SIGABRT", "SIGSEGV", ... or "signal N".
std::string SignalName(int signal);

// Why a child that read `what` ended, for a user: the uncaught exception
// ("ran out of memory (std::bad_alloc)"), a SIGKILL (the kernel's
// out-of-memory killer or a user), or the signal and `otherwise`.
std::string ChildDeath(const ChildOutcome& outcome, std::string_view what,
                       std::string_view otherwise);

// Makes a write to a pipe nobody reads any more (`sstfilter_sst ... | head`)
// fail with EPIPE instead of ending the process with SIGPIPE, and notes that
// one did: the tool can then clean up and stop quietly. Call it before
// RunInChild; the child inherits it.
void CatchClosedOutput();

// Whether this process has written to a pipe nobody reads.
bool OutputClosed();

}  // namespace sstfilter

#endif  // SSTFILTER_TOOLS_CHILD_GUARD_H_

// Runs a command-line tool of this project as a child process for end-to-end
// tests: stdout and stderr captured together, and how it ended (an exit
// status, or the signal that killed it).
#ifndef SSTFILTER_TESTS_TOOL_RUNNER_H_
#define SSTFILTER_TESTS_TOOL_RUNNER_H_

#include <sys/wait.h>

#include <cstdio>
#include <string>
#include <vector>

namespace sstfilter::testing {

struct ToolResult {
  int exit_code = -1;    // -1 when the tool did not exit normally.
  int term_signal = 0;   // The signal that ended it, 0 when it exited.
  std::string output;    // stdout and stderr together.
};

// Runs `binary args...` through the shell, each argument single-quoted (test
// arguments never hold quotes). `exec` keeps the shell from standing between
// the test and the tool, so a signal that kills the tool is reported as such.
inline ToolResult RunTool(const std::string& binary, const std::vector<std::string>& args) {
  std::string command = "exec " + binary;
  for (const std::string& arg : args) command += " '" + arg + "'";
  command += " 2>&1";
  ToolResult result;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) result.output.append(buf, n);
  const int status = pclose(pipe);
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.term_signal = WTERMSIG(status);
  return result;
}

inline bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// The number after `label` in the output, or -1.
// How many times needle occurs in haystack.
inline size_t Count(const std::string& haystack, const std::string& needle) {
  size_t n = 0;
  for (size_t at = 0; (at = haystack.find(needle, at)) != std::string::npos; ++at) ++n;
  return n;
}

inline double NumberAfter(const std::string& output, const std::string& label) {
  const size_t at = output.find(label);
  if (at == std::string::npos) return -1;
  double value = -1;
  std::sscanf(output.c_str() + at + label.size(), " %lf", &value);
  return value;
}

}  // namespace sstfilter::testing

#endif  // SSTFILTER_TESTS_TOOL_RUNNER_H_

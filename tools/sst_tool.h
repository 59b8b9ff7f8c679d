// What the SST inspector's two paths share (sst_main.cc for RocksDB tables,
// leveldb_inspect.cc for LevelDB tables): exit statuses, error reporting and
// the questions asked on the command line.
#ifndef SSTFILTER_TOOLS_SST_TOOL_H_
#define SSTFILTER_TOOLS_SST_TOOL_H_

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"

namespace sstfilter {

inline constexpr int kExitBadFile = 1;     // Missing, unreadable, not an SST, damaged.
inline constexpr int kExitUsage = 2;       // Bad flags.
inline constexpr int kExitUnanswered = 3;  // Keys/sample asked of a filter that is not ours.

// Prints "sstfilter_sst: msg" to stderr and returns code.
inline int Fail(int code, const std::string& msg) {
  absl::FPrintF(stderr, "sstfilter_sst: %s\n", msg);
  return code;
}

// The questions asked on the command line: keys to look up, a sample size.
struct Questions {
  std::vector<std::string> keys;
  int64_t sample = 0;
  bool any() const { return !keys.empty() || sample > 0; }
};

}  // namespace sstfilter

#endif  // SSTFILTER_TOOLS_SST_TOOL_H_

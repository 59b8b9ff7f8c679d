// What the SST inspector's two paths share (sst_main.cc for RocksDB tables,
// leveldb_inspect.cc for LevelDB tables): exit statuses, error reporting and
// the questions asked on the command line.
#ifndef SSTFILTER_TOOLS_SST_TOOL_H_
#define SSTFILTER_TOOLS_SST_TOOL_H_

#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_format.h"

namespace sstfilter {

inline constexpr int kExitBadFile = 1;     // Missing, unreadable, not an SST, damaged.
inline constexpr int kExitUsage = 2;       // Bad flags.
inline constexpr int kExitUnanswered = 3;  // Keys/sample asked of a filter that is not ours.
// Standard output closed before the report was written (`| head`): the tool
// stops quietly with 128 + SIGPIPE, what a shell shows for a command that
// SIGPIPE ended.
inline constexpr int kExitOutputClosed = 141;

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

// n random keys of `length` bytes for which present(key) is false, drawn
// from `seed`. The seed goes through a mixer so that seed s does not replay
// mt19937_64(s), a stream test data is often drawn from. ResourceExhausted
// when the table holds so many keys of that length that 20 draws per key
// do not find enough.
template <typename IsPresent>
absl::StatusOr<std::vector<std::string>> DrawAbsentKeys(size_t n, size_t length, uint64_t seed,
                                                        const IsPresent& present) {
  std::seed_seq mixed{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32),
                      uint32_t{0x66696c74}};
  std::mt19937_64 rng(mixed);
  std::vector<std::string> keys;
  keys.reserve(n);
  const uint64_t max_attempts = 20 * static_cast<uint64_t>(n) + 1000;
  for (uint64_t attempt = 0; keys.size() < n; ++attempt) {
    if (attempt == max_attempts) {
      return absl::ResourceExhaustedError(absl::StrFormat(
          "could not generate %d absent keys of %d bytes: the table holds most such keys", n,
          length));
    }
    std::string key(length, '\0');
    for (char& c : key) c = static_cast<char>(rng());
    if (!present(key)) keys.push_back(std::move(key));
  }
  return keys;
}

}  // namespace sstfilter

#endif  // SSTFILTER_TOOLS_SST_TOOL_H_

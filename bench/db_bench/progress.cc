#include "bench/db_bench/progress.h"

#include <chrono>
#include <cstdio>

#include "absl/strings/str_format.h"

namespace sstfilter::db_bench {

namespace {

// Set when the program's statics are initialised, before main.
const std::chrono::steady_clock::time_point kStart = std::chrono::steady_clock::now();

}  // namespace

void ProgressLine(std::string_view text) {
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(
                           std::chrono::steady_clock::now() - kStart)
                           .count();
  absl::FPrintF(stderr, "[%02d:%02d] %s\n", seconds / 60, seconds % 60, text);
  std::fflush(stderr);
}

}  // namespace sstfilter::db_bench

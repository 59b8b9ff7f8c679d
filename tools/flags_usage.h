// --help for our command-line tools: list the flags defined in the tool's own
// source file(s). Abseil's default only lists flags of files named after the
// binary, which ours are not, so --help would otherwise say "No flags matched".
#ifndef SSTFILTER_TOOLS_FLAGS_USAGE_H_
#define SSTFILTER_TOOLS_FLAGS_USAGE_H_

#include <string>

#include "absl/flags/usage.h"
#include "absl/flags/usage_config.h"
#include "absl/strings/string_view.h"

namespace sstfilter {

// Call before absl::ParseCommandLine. `source_dir` is the directory holding
// the tool's flag definitions, relative to the repository root (e.g.
// "bench/db_bench/"); `usage` is the text --help prints above the flags.
inline void SetToolUsage(const char* source_dir, const char* usage) {
  absl::SetProgramUsageMessage(usage);
  static std::string dir;  // Read by the callbacks below for the process's life.
  dir = source_dir;
  absl::FlagsUsageConfig config;
  config.contains_help_flags = [](absl::string_view path) {
    return path.find(dir) != absl::string_view::npos;
  };
  config.contains_helpshort_flags = config.contains_help_flags;
  absl::SetFlagsUsageConfig(config);
}

}  // namespace sstfilter

#endif  // SSTFILTER_TOOLS_FLAGS_USAGE_H_

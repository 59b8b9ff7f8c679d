#include "bench/db_bench/run_dir.h"

#include <stdlib.h>

#include <filesystem>
#include <system_error>
#include <utility>

#include "absl/strings/str_cat.h"

namespace sstfilter::db_bench {

absl::StatusOr<RunDir> RunDir::Make(const std::string& base, const std::string& suffix) {
  if (!base.empty()) return RunDir(suffix.empty() ? base : absl::StrCat(base, ".", suffix), false);
  std::string pattern =
      (std::filesystem::temp_directory_path() / "sstfilter_db_bench_XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) {
    return absl::InternalError(absl::StrCat("cannot create a temporary directory ", pattern));
  }
  return RunDir(std::move(pattern), true);
}

RunDir::RunDir(RunDir&& other) noexcept
    : path_(std::move(other.path_)), temporary_(other.temporary_) {
  other.temporary_ = false;
}

RunDir::~RunDir() {
  if (!temporary_) return;
  std::error_code ignored;  // What cannot be removed stays; the run is over.
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace sstfilter::db_bench

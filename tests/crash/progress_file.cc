#include "tests/crash/progress_file.h"

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"

namespace sstfilter::crash {

absl::StatusOr<uint64_t> ProgressFile::Read() const {
  if (env_->FileExists(path_).IsNotFound()) return 0;
  std::string text;
  rocksdb::Status s = rocksdb::ReadFileToString(env_, path_, &text);
  if (!s.ok()) return absl::InternalError(absl::StrCat("reading ", path_, ": ", s.ToString()));
  uint64_t steps = 0;
  if (!absl::SimpleAtoi(absl::StripSuffix(text, "\n"), &steps)) {
    return absl::DataLossError(absl::StrCat(path_, " does not hold a step count: '", text, "'"));
  }
  return steps;
}

absl::Status ProgressFile::Record(uint64_t acknowledged_steps) const {
  const std::string temp = path_ + ".tmp";
  rocksdb::Status s = rocksdb::WriteStringToFile(env_, absl::StrCat(acknowledged_steps, "\n"),
                                                 temp, /*should_sync=*/true);
  if (s.ok()) s = env_->RenameFile(temp, path_);
  if (!s.ok()) return absl::InternalError(absl::StrCat("recording progress in ", path_, ": ", s.ToString()));
  return absl::OkStatus();
}

}  // namespace sstfilter::crash

// The directory of one run's DB (one filter of --compare, one shape and
// policy of --shapes): under --db a name of its own that is kept, as
// db_bench keeps --db; otherwise a fresh temporary directory, removed when
// the run is over.
#ifndef SSTFILTER_BENCH_DB_BENCH_RUN_DIR_H_
#define SSTFILTER_BENCH_DB_BENCH_RUN_DIR_H_

#include <string>

#include "absl/status/statusor.h"

namespace sstfilter::db_bench {

class RunDir {
 public:
  // `base` empty: a new directory under the system's temporary directory.
  // Otherwise `base` itself when `suffix` is empty, else "<base>.<suffix>".
  static absl::StatusOr<RunDir> Make(const std::string& base, const std::string& suffix);

  RunDir(RunDir&& other) noexcept;
  RunDir& operator=(RunDir&&) = delete;
  RunDir(const RunDir&) = delete;
  ~RunDir();  // Removes a temporary directory and all in it.

  const std::string& path() const { return path_; }

 private:
  RunDir(std::string path, bool temporary) : path_(std::move(path)), temporary_(temporary) {}
  std::string path_;
  bool temporary_;
};

}  // namespace sstfilter::db_bench

#endif  // SSTFILTER_BENCH_DB_BENCH_RUN_DIR_H_

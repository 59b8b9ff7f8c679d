// The writer's record of what RocksDB acknowledged: the number of steps
// (key_scheme.h) whose synced write returned OK. The verifier requires every
// one of them in the DB after the crash.
//
// The record trails the DB by at most one batch (it is written after the
// write returns), never leads it. It is replaced atomically: written to a
// temporary file, synced, then renamed over the old one, so a kill at any
// moment leaves either the old count or the new one, never a torn file.
#ifndef SSTFILTER_TESTS_CRASH_PROGRESS_FILE_H_
#define SSTFILTER_TESTS_CRASH_PROGRESS_FILE_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "rocksdb/env.h"

namespace sstfilter::crash {

class ProgressFile {
 public:
  ProgressFile(rocksdb::Env* env, std::string path) : env_(env), path_(std::move(path)) {}

  // The recorded count; 0 when no record exists yet. A file that does not
  // hold a count is an error naming the file.
  absl::StatusOr<uint64_t> Read() const;
  // Replaces the record with `acknowledged_steps`.
  absl::Status Record(uint64_t acknowledged_steps) const;

 private:
  rocksdb::Env* env_;
  std::string path_;
};

}  // namespace sstfilter::crash

#endif  // SSTFILTER_TESTS_CRASH_PROGRESS_FILE_H_

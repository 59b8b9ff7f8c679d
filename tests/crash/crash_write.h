// The crash test's writer: puts the steps of key_scheme.h in order, one
// synced WriteBatch at a time, from the step the progress file names,
// until it is killed (or the key space is used up). Between batches it
// flushes the memtable and compacts key ranges, so a kill can land inside
// a flush or a compaction as well as inside a write.
//
// It announces each phase on stderr ("phase open|write|flush|compact"), so
// the driver can tell where a kill landed.
#ifndef SSTFILTER_TESTS_CRASH_CRASH_WRITE_H_
#define SSTFILTER_TESTS_CRASH_CRASH_WRITE_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"

namespace sstfilter::crash {

struct WriteConfig {
  std::string db;             // DB directory (created if missing).
  std::string progress;       // ProgressFile path.
  std::string table_options;  // See crash_options.h.
  uint64_t seed = 1;          // Picks the compacted ranges.
  uint64_t batch_steps = 16;  // Steps per synced WriteBatch.
  uint64_t flush_every = 8;  // Batches between manual flushes.
  uint64_t compact_every = 32;  // Batches between manual CompactRange calls.
  uint64_t max_steps = 0;     // Stop after this step (0: the whole key space).
};

// Returns OK only when max_steps is reached; a kill never returns.
absl::Status RunWriter(const WriteConfig& config);

}  // namespace sstfilter::crash

#endif  // SSTFILTER_TESTS_CRASH_CRASH_WRITE_H_

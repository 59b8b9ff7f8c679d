// The storage engine under sstfilter_db_bench's workloads: RocksDB
// (rocksdb_engine.h) or LevelDB (leveldb_engine.h). The workload (keys,
// order, timing, threads) is the engine's caller and knows no engine; an
// engine knows no workload.
//
// Counter meanings (what the report's columns show):
//   filter_useful        filter checks that said "absent" (a data block
//                        read saved);
//   filter_positive      filter checks that said "may be present";
//   filter_true_positive positives whose key was found in that table;
//   data_block_reads     data blocks read from table files by Gets (block
//                        cache misses), on the reader threads only.
#ifndef SSTFILTER_BENCH_DB_BENCH_ENGINE_H_
#define SSTFILTER_BENCH_DB_BENCH_ENGINE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace sstfilter::db_bench {

enum class EngineKind { kRocksDb, kLevelDb };

// "rocksdb" or "leveldb"; anything else is InvalidArgument naming it.
absl::StatusOr<EngineKind> ParseEngineKind(std::string_view name);
const char* EngineName(EngineKind kind);

// The LSM tree's shape, as stock db_bench's flags of the same names; unset:
// the engine's default. RocksDB only (main.cc refuses them for LevelDB).
struct LsmShape {
  std::optional<int64_t> write_buffer_size;
  std::optional<int64_t> target_file_size_base;
  std::optional<int64_t> max_bytes_for_level_base;
  std::optional<bool> level_compaction_dynamic_level_bytes;
  // "none", "snappy", "lz4" or "zstd" (main.cc checks the name).
  std::optional<std::string> compression_type;

  bool IsDefault() const {
    return !write_buffer_size && !target_file_size_base && !max_bytes_for_level_base &&
           !level_compaction_dynamic_level_bytes && !compression_type;
  }
};

// The filters of a DB's live tables.
struct FilterSizes {
  uint64_t bytes = 0;
  // Keys they hold: RocksDB's table entries; LevelDB, which keeps no entry
  // counts, the keys the fills wrote (--num).
  uint64_t keys = 0;
  // bytes by the level the tables sit at (index = level); empty when the
  // engine does not say.
  std::vector<uint64_t> bytes_by_level;

  double BytesPerKey() const {
    return keys ? static_cast<double>(bytes) / static_cast<double>(keys) : 0;
  }
};

// What an engine is opened with.
struct EngineOptions {
  std::string filter;  // A policy string of the engine ("none": no filter).
  std::string path;    // The DB directory.
  int64_t cache_size = 8 << 20;  // Block cache bytes.
  bool partition_index_and_filters = false;  // RocksDB only.
  // Open the DB at path as it is; otherwise it is destroyed first, as
  // db_bench does.
  bool use_existing_db = false;
  int64_t num = 0;  // Keys the fills write (engines without a key count).
  LsmShape shape;
};

// Cumulative since the engine was opened (see the file comment).
struct EngineCounters {
  uint64_t filter_useful = 0;
  uint64_t filter_positive = 0;
  uint64_t filter_true_positive = 0;
  uint64_t data_block_reads = 0;
};

// Lookups of one reader thread. Create, use and destroy it on that thread:
// it adds its data-block reads (and, where the engine needs it, true
// positives) to the engine's counters when destroyed.
class EngineReader {
 public:
  virtual ~EngineReader() = default;
  // true: found; false: not found; an error: the engine's status message.
  virtual absl::StatusOr<bool> Get(const std::string& key) = 0;
  // results[i] is Get(keys[i])'s answer, for i < n, in one batched call.
  // REQUIRES: the engine's SupportsMultiGet().
  virtual void MultiGet(const std::vector<std::string>& keys, size_t n,
                        absl::StatusOr<bool>* results) = 0;
};

class Engine {
 public:
  virtual ~Engine() = default;
  // Writes keys[i] -> value for every i, as one atomic batch.
  virtual absl::Status Write(const std::vector<std::string>& keys, std::string_view value) = 0;
  // Moves the memtable's contents into a table file.
  virtual absl::Status Flush() = 0;
  // Compacts everything into one sorted run.
  virtual absl::Status CompactAll() = 0;
  // Returns once no flush or compaction is queued or running (RocksDB).
  // LevelDB cannot say: it returns at once.
  virtual absl::Status WaitForCompactions() = 0;
  virtual bool SupportsMultiGet() const = 0;
  virtual std::unique_ptr<EngineReader> NewReader() = 0;
  // REQUIRES: no reader alive (their counts are added when destroyed).
  virtual EngineCounters Counters() const = 0;
  virtual absl::StatusOr<FilterSizes> LiveFilterSizes() = 0;
  // The engine's own statistics, as text.
  virtual std::string StatisticsDump() const = 0;
};

}  // namespace sstfilter::db_bench

#endif  // SSTFILTER_BENCH_DB_BENCH_ENGINE_H_

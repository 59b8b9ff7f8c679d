// The storage engine under sstfilter_db_bench's workloads: RocksDB
// (rocksdb_engine.h) or LevelDB (leveldb_engine.h). The workload (keys,
// order, timing, threads) is the engine's caller and knows no engine; an
// engine knows no workload.
//
// Counter meanings (what the report's columns show): FilterChecks below;
//   data_block_reads     data blocks read from table files by Gets (block
//                        cache misses), on the reader threads only;
//   filter_block_reads   filter blocks (or filter partitions) read from
//                        table files by Gets (with cache_index_and_filter_blocks,
//                        when the block cache had lost them);
//   index_block_reads    index blocks (or index partitions) read the same way.
// With direct reads each of these is a device read.
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
  std::optional<double> max_bytes_for_level_multiplier;
  std::optional<bool> level_compaction_dynamic_level_bytes;
  // "none", "snappy", "lz4" or "zstd" (main.cc checks the name).
  std::optional<std::string> compression_type;
  // "level", "universal" or "fifo" (RocksDB's defaults for each; FIFO keeps
  // up to 1 GB of tables). Set by the tree shapes (shape.h), no flag.
  std::optional<std::string> compaction_style;

  bool IsDefault() const {
    return !write_buffer_size && !target_file_size_base && !max_bytes_for_level_base &&
           !max_bytes_for_level_multiplier && !level_compaction_dynamic_level_bytes &&
           !compression_type && !compaction_style;
  }
};

// The live tables of one level.
struct LevelTables {
  uint64_t files = 0;
  uint64_t keys = 0;          // Their entries.
  uint64_t filter_bytes = 0;  // Their filters' bytes.
};

// The filters of a DB's live tables.
struct FilterSizes {
  uint64_t bytes = 0;
  // Keys they hold: RocksDB's table entries; LevelDB, which keeps no entry
  // counts, the keys the fills wrote (--num).
  uint64_t keys = 0;
  // By the level the tables sit at (index = level); empty when the engine
  // does not say.
  std::vector<LevelTables> by_level;

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
  // RocksDB only: reads bypass the OS page cache (use_direct_reads), so a
  // block cache miss is a device read; filter and index blocks live in the
  // block cache, competing with data blocks (cache_index_and_filter_blocks).
  bool use_direct_reads = false;
  bool cache_index_and_filter_blocks = false;
  // RocksDB's optimize_filters_for_hits: no filters for the bottom level.
  bool optimize_filters_for_hits = false;
};

// Filter checks made by lookups (RocksDB's BLOOM_FILTER_* counters).
struct FilterChecks {
  uint64_t useful = 0;         // Said "absent": a data block read saved.
  uint64_t positive = 0;       // Said "may be present".
  uint64_t true_positive = 0;  // Positives whose key was in that table.

  // Checks of keys the table did not hold: rejections plus false positives
  // (a filter has no false negatives).
  uint64_t absent() const { return useful + positive - true_positive; }
  // False positives / absent(); 0 when there were none.
  double fp_rate() const {
    return absent() ? static_cast<double>(positive - true_positive) / absent() : 0;
  }
  FilterChecks operator-(const FilterChecks& o) const {
    return {useful - o.useful, positive - o.positive, true_positive - o.true_positive};
  }
  FilterChecks& operator+=(const FilterChecks& o) {
    useful += o.useful, positive += o.positive, true_positive += o.true_positive;
    return *this;
  }
};

// Cumulative since the engine was opened (see the file comment).
struct EngineCounters {
  FilterChecks filter;
  // By the level of the table checked (index = level); empty when the
  // engine does not say (LevelDB).
  std::vector<FilterChecks> filter_by_level;
  // The block cache's misses (filter, index and data blocks alike) by the
  // level of the table that read them (index = level; RocksDB's per-level
  // perf context); empty when the engine does not say.
  std::vector<uint64_t> block_misses_by_level;
  uint64_t data_block_reads = 0;
  uint64_t filter_block_reads = 0;
  uint64_t index_block_reads = 0;

  // This minus an earlier reading of the same engine.
  EngineCounters Since(const EngineCounters& before) const;
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

// The bytes an engine's DB wrote since it opened: its flushes' and
// compactions' (RocksDB's FLUSH_WRITE_BYTES and COMPACT_WRITE_BYTES), and
// of the compactions', the census's rewrites of tables to today's plan
// (table/census/rebuild_loop.h, which RocksDB runs as compactions).
struct WrittenBytes {
  uint64_t flushes = 0, compactions = 0;
  uint64_t rebuilt_tables = 0, rebuilt = 0;
};

class Engine {
 public:
  virtual ~Engine() = default;
  // Zero where the engine does not count them (LevelDB).
  virtual WrittenBytes Written() const { return {}; }
  // Holds the census's rebuild loop from starting a rewrite, or lets it
  // go on (RocksDB; LevelDB has none).
  virtual void HoldRebuilds(bool /*hold*/) {}
  // Writes keys[i] -> value for every i, as one atomic batch.
  virtual absl::Status Write(const std::vector<std::string>& keys, std::string_view value) = 0;
  // Moves the memtable's contents into a table file.
  virtual absl::Status Flush() = 0;
  // Compacts everything into one sorted run.
  virtual absl::Status CompactAll() = 0;
  // Returns once no flush or compaction is queued or running (RocksDB);
  // while automatic compactions are off, or when one queued has not
  // started in a second with nothing running (universal compaction's
  // picker can decline one it reports due), once none is running. LevelDB
  // cannot say: it returns at once.
  virtual absl::Status WaitForCompactions() = 0;
  // Turns automatic compactions off or back on (RocksDB's
  // disable_auto_compactions); compactions already running finish. LevelDB
  // cannot: Unimplemented.
  virtual absl::Status SetAutoCompactions(bool on) = 0;
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

// The db_bench-style workload: key format, one benchmark run, its result.
//
// Keys are db_bench's: the key number as 8 big-endian bytes, padded with
// '0' to --key_size. readmissing reads keys one byte longer (db_bench's own
// trick), which are never present but share every prefix with present ones.
#ifndef SSTFILTER_BENCH_DB_BENCH_WORKLOAD_H_
#define SSTFILTER_BENCH_DB_BENCH_WORKLOAD_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "bench/db_bench/engine.h"
#include "bench/db_bench/key_draw.h"
#include "rocksdb/env.h"

namespace sstfilter::db_bench {

// What a benchmark runs: a fill writes every key once (in key order or in a
// random permutation), a read asks --reads keys (written or missing ones,
// one Get at a time or MultiGet batches of --batch_size).
struct BenchmarkSpec {
  enum class Op { kFill, kRead };
  std::string_view name;
  Op op;
  bool sequential;  // kFill: keys in order.
  bool missing;     // kRead: keys that were never written.
  bool multi;       // kRead: MultiGet instead of Get.
};

// Every benchmark BenchDb::Run knows, in the order --help lists them.
inline constexpr BenchmarkSpec kBenchmarks[] = {
    {"fillrandom", BenchmarkSpec::Op::kFill, false, false, false},
    {"fillseq", BenchmarkSpec::Op::kFill, true, false, false},
    {"readrandom", BenchmarkSpec::Op::kRead, false, false, false},
    {"readmissing", BenchmarkSpec::Op::kRead, false, true, false},
    {"multireadrandom", BenchmarkSpec::Op::kRead, false, false, true},
    {"multireadmissing", BenchmarkSpec::Op::kRead, false, true, true},
};

// The entry of kBenchmarks called `name`, or nullptr.
const BenchmarkSpec* FindBenchmark(std::string_view name);

// "fillrandom, fillseq, ...": the names of kBenchmarks for messages.
std::string BenchmarkNames();

// The error for a name FindBenchmark does not know.
absl::Status UnknownBenchmarkError(std::string_view name);

// OK if `engine` can run `spec`; multireadrandom needs a MultiGet, which
// LevelDB lacks: it is refused there rather than run as a loop of Gets
// (which is readrandom).
absl::Status CheckBenchmarkSupported(const BenchmarkSpec& spec, EngineKind engine);

struct WorkloadConfig {
  int64_t num = 1000000;
  int64_t reads = -1;  // -1: same as num.
  int key_size = 16;
  int value_size = 100;
  int batch_size = 32;
  int threads = 1;
  bool partition_index_and_filters = false;
  int64_t cache_size = 8 << 20;
  // After a fill: compact everything into one sorted run; or else the
  // fill waits for the engine's flushes and compactions after each write
  // batch (WaitForCompactions), so the tree of levels the reads see is the
  // same for every filter (RocksDB).
  bool compact_after_fill = true;
  LsmShape shape;  // RocksDB only.
  bool use_direct_reads = false;               // RocksDB only (EngineOptions).
  bool cache_index_and_filter_blocks = false;  // RocksDB only.
  bool optimize_filters_for_hits = false;      // RocksDB only.
  // Open the DB as it is (fills are then skipped by the tool, as by
  // db_bench); otherwise it is destroyed first.
  bool use_existing_db = false;
  EngineKind engine = EngineKind::kRocksDb;
  uint64_t seed = 301;
};

// What one benchmark measured. Filter figures are the engine's counters
// (engine.h), deltas over this benchmark.
struct BenchmarkResult {
  std::string name;
  int64_t ops = 0;
  double seconds = 0;
  int64_t found = 0;
  bool is_read = false;
  // The engine's counters over this benchmark (engine.h).
  EngineCounters counters;
  // Over all live tables after the benchmark.
  FilterSizes tables;

  double micros_per_op() const { return ops ? seconds * 1e6 / ops : 0; }
  double ops_per_sec() const { return seconds > 0 ? ops / seconds : 0; }
  // Filter checks of absent keys: rejections plus false positives.
  uint64_t absent_checks() const { return counters.filter.absent(); }
  // FP rate of the filter on absent keys: false positives / absent checks.
  double fp_rate() const { return counters.filter.fp_rate(); }
  double data_block_reads_per_op() const { return PerOp(counters.data_block_reads); }
  double filter_block_reads_per_op() const { return PerOp(counters.filter_block_reads); }
  double index_block_reads_per_op() const { return PerOp(counters.index_block_reads); }
  double filter_bytes_per_key() const { return tables.BytesPerKey(); }
  uint64_t filter_bytes() const { return tables.bytes; }
  double PerOp(uint64_t count) const {
    return ops ? static_cast<double>(count) / static_cast<double>(ops) : 0;
  }
};

// The keys a read benchmark draws from: those numbered step * j for j <
// count (present keys; an absent-key benchmark reads them one byte longer),
// j drawn by `traffic` (key_draw.h).
// REQUIRES: count > 0, step > 0.
struct ReadKeys {
  int64_t count = 0;
  int64_t step = 1;
  LookupTraffic traffic = {};
  // Which draw of keys: a read with another draw asks other keys (a
  // warm-up, then a measurement that does not find the warm-up's blocks
  // cached for its own keys).
  uint64_t draw = 0;
  // Below 0: the keys the benchmark says (readmissing's all missing, the
  // others' all present). Else each key read is a missing one with this
  // probability (0.5: a mix, half the Gets finding their key).
  double missing_share = -1;
};

// A DB of config.engine opened for one filter policy ("none" = no filter).
class BenchDb {
 public:
  // Resolves the policy string strictly (rocksdb_engine.h, leveldb_engine.h).
  // `env` is the Env a RocksDB runs on (nullptr: the default one); tests
  // pass one that fails. It must outlive the BenchDb. REQUIRES: env is
  // nullptr for LevelDB.
  static absl::StatusOr<std::unique_ptr<BenchDb>> Open(const std::string& filter,
                                                       const std::string& path,
                                                       const WorkloadConfig& config,
                                                       rocksdb::Env* env = nullptr);

  // Runs the benchmark of kBenchmarks called `benchmark`. Any error the
  // engine reports (a failed Write, Flush or CompactRange, a Get or MultiGet
  // status other than OK or NotFound) fails the benchmark with a status
  // naming the benchmark, the operation and the engine's status.
  absl::StatusOr<BenchmarkResult> Run(const std::string& benchmark);
  // The read benchmark of kBenchmarks called `benchmark`, `reads` lookups
  // drawn from `keys` (Run draws from every key below --num), as Run
  // otherwise. The tree shapes (shape_run.h) read the keys written so far.
  absl::StatusOr<BenchmarkResult> RunRead(const std::string& benchmark, const ReadKeys& keys,
                                          int64_t reads);
  std::string StatisticsDump() const;
  // Writes the keys numbered numbers[begin, end), in order, as a fill
  // writes them: batches of 100, and without the final compaction
  // (WorkloadConfig::compact_after_fill) each batch's flushes and
  // compactions run out before the next. A failure names `benchmark` and
  // the operation; progress on stderr counts over all of `numbers`.
  absl::Status WriteKeys(std::string_view benchmark, const std::vector<uint64_t>& numbers,
                         size_t begin, size_t end);
  // The engine, for steps no benchmark takes (shape_run.h).
  Engine& engine() { return *engine_; }

 private:
  BenchDb() = default;
  absl::StatusOr<BenchmarkResult> Fill(const BenchmarkSpec& spec);
  absl::StatusOr<BenchmarkResult> Read(const BenchmarkSpec& spec, const ReadKeys& keys,
                                       int64_t reads);
  // The live tables' filters added to a benchmark's result.
  absl::StatusOr<BenchmarkResult> WithTables(absl::StatusOr<BenchmarkResult> result);
  struct ReadTotals;
  // Reader thread t of `threads`: its share of `reads` lookups of `keys`.
  void ReadThread(const BenchmarkSpec& spec, int t, int threads, const ReadKeys& keys,
                  int64_t reads, ReadTotals* totals);

  WorkloadConfig config_;
  std::unique_ptr<Engine> engine_;
};

// db_bench's key for number v.
std::string MakeKey(uint64_t v, int key_size);
// The number of a key MakeKey(v, key_size) wrote, or of that key read
// missing (one byte longer).
uint64_t KeyNumber(std::string_view key, int key_size);

}  // namespace sstfilter::db_bench

#endif  // SSTFILTER_BENCH_DB_BENCH_WORKLOAD_H_

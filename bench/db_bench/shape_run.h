// Runs the tree shapes (shape.h) for sstfilter_db_bench --shapes: each
// shape for each policy in a DB of its own (compaction timing differs
// between policies, so each policy gets its own tree), and at each measure
// point, on that tree as it is:
//   - absent-key Gets (readmissing): false positives per Get, counted by
//     RocksDB's filter tickers, and the live tables' filter bytes;
//   - the advisor's projection of the same tree (tools/db_projection.h, what
//     sstfilter_sst --db prints): the false positives per absent Get its
//     model gives today's filters, and optimize_levels' optimum at today's
//     filter bytes;
//   - present-key Gets (readrandom): data blocks read from the device per
//     Get, and time.
// RocksDB only.
#ifndef SSTFILTER_BENCH_DB_BENCH_SHAPE_RUN_H_
#define SSTFILTER_BENCH_DB_BENCH_SHAPE_RUN_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "bench/db_bench/shape.h"
#include "bench/db_bench/workload.h"
#include "filter/allocation/tree_projection.h"

namespace sstfilter::db_bench {

// The policies --shapes compares by default: the uniform reference (the
// first), RocksDB's Bloom filter, and the per-level policy in two encodings.
inline constexpr char kDefaultShapePolicies[] =
    "sstfilter.bloom:10:cache_local,bloomfilter:10,sstfilter.bloom:10:cache_local:optimize_levels,"
    "sstfilter.bloom:10:banded:optimize_levels";

struct ShapeConfig {
  // --num, the tree's sizes, storage, seed. Each shape sets the compaction
  // style and dynamic level bytes itself.
  WorkloadConfig workload;
  int64_t absent_reads = 200000;  // readmissing Gets per measure point.
  int64_t present_reads = 20000;  // readrandom Gets per measure point.
  int64_t round_reads = 1000000;   // Gets per kRead step (the skewed shapes' rounds).
  // A learning phase at each measure point: after its measure, this many
  // absent-key Gets with the census's rebuild loop let go (held otherwise:
  // a point is the tree as its history left it), its rewrites until none
  // for kLearnQuiet (at most kLearnLimit), then the point measured again
  // ("<point>+learn"); 0: none.
  int64_t learn_gets = 0;
  static constexpr std::chrono::seconds kLearnQuiet{5};
  static constexpr std::chrono::seconds kLearnLimit{600};
  std::string db;  // --db: each run's DB is <db>.<shape>.<policy index>, kept.
};

// One policy at one measure point of one shape.
struct PointResult {
  std::string shape, point, policy;
  BenchmarkResult absent;   // readmissing; its tables: the live tables after it.
  BenchmarkResult present;  // readrandom.
  // The advisor's projection of the tree right after the absent Gets.
  absl::StatusOr<TreeProjection> optimum = absl::UnknownError("not projected");
  // A learning phase's point: its Gets, the tables and bytes its rewrites
  // wrote, and what the DB's flushes and compactions wrote before it (in
  // this DB instance).
  int64_t learned_gets = 0;
  uint64_t rebuilt_tables = 0, rebuilt_bytes = 0, db_bytes = 0;

  // Filter bits per entry of the live tables.
  double bits_per_entry() const { return 8 * absent.filter_bytes_per_key(); }
  // False positives per absent Get: data blocks read for nothing, from the
  // block cache or the device.
  double false_positives_per_get() const {
    const FilterChecks& f = absent.counters.filter;
    return absent.PerOp(f.positive - f.true_positive);
  }
};

// Says what a run is doing ("fill 1500000 keys", "measure 'young'").
using StepReporter = std::function<void(std::string_view step)>;

// Runs `shape` for `policy` in a new DB at `path` (destroyed first).
// REQUIRES: config.workload.engine is RocksDB.
absl::StatusOr<std::vector<PointResult>> RunShape(const TreeShape& shape,
                                                  const std::string& policy,
                                                  const std::string& path,
                                                  const ShapeConfig& config,
                                                  const StepReporter& report);

// Every shape for every policy, shape by shape, with progress lines on
// stderr (progress.h): the shape, the policy, the step and the runs left.
// After each shape, `shape_done` gets its results (every policy's points).
absl::Status RunShapes(const std::vector<const TreeShape*>& shapes,
                       const std::vector<std::string>& policies, const ShapeConfig& config,
                       const std::function<void(const std::vector<PointResult>&)>& shape_done);

}  // namespace sstfilter::db_bench

#endif  // SSTFILTER_BENCH_DB_BENCH_SHAPE_RUN_H_

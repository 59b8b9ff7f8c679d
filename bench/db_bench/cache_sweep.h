// Filters that live in the block cache (--cache_sweep, --scenario=cached):
// partitioned filters and indexes cached with high priority, the top level
// pinned, data read with direct I/O, so every block the cache does not hold
// is a device read. Each policy builds its DB once; the DB is then reopened
// at each block-cache size and read with absent, present and mixed Gets,
// a warm-up first and then the measured Gets (other keys of the same
// draw), so the cache is in its steady state for that size and traffic.
// Per point: device reads per Get split into filter partitions, index
// blocks and data blocks, the Get's latency and the live filter bytes, and
// the cache model's prediction from the DB's live tables beside them.
//
// The caches are fractions of what bloomfilter:10's filters need at --num
// keys (10 bits a key): the regime where filters do not fit starts below 1.
#ifndef SSTFILTER_BENCH_DB_BENCH_CACHE_SWEEP_H_
#define SSTFILTER_BENCH_DB_BENCH_CACHE_SWEEP_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "bench/db_bench/key_draw.h"
#include "bench/db_bench/workload.h"
#include "filter/cache_model/cache_reads.h"

namespace sstfilter::db_bench {

// The rows of the sweep by default: RocksDB's Bloom and Ribbon filters,
// RocksDB's Bloom without bottom-level filters (kHitsSuffix), ours uniform
// and per level.
inline constexpr char kHitsSuffix[] = "+optimize_filters_for_hits";
inline constexpr char kDefaultCacheRows[] =
    "bloomfilter:10,ribbonfilter:10,bloomfilter:10+optimize_filters_for_hits,"
    "sstfilter.bloom:10:cache_local,sstfilter.bloom:10:cache_local:optimize_levels,"
    "sstfilter.bloom:10:banded:optimize_levels";

// One row: a filter policy, and whether the column family sets
// optimize_filters_for_hits (the row's filter string ends in kHitsSuffix).
struct CacheRow {
  std::string label;   // As given.
  std::string filter;  // Without the suffix.
  bool hits = false;
};

// The rows of a --compare list (compare_list.h syntax, "*" expanded), each
// entry possibly ending in kHitsSuffix.
absl::StatusOr<std::vector<CacheRow>> ParseCacheRows(const std::string& list);

// "0.125,0.5,2" -> fractions, each in (0, 64], at least one, no repeats,
// in increasing order.
absl::StatusOr<std::vector<double>> ParseCacheFractions(const std::string& list);

// What bloomfilter:10's filters take for `keys` keys: 10 bits a key.
int64_t BloomTenFilterBytes(int64_t keys);

// The Gets of one point: absent (none finds its key), present (all do) or
// mixed (each finds its key with probability 1/2).
enum class GetKind { kAbsent, kPresent, kMixed };
const char* GetKindName(GetKind kind);
// "absent,mixed" -> kinds (--sweep_gets); an error names a kind it does not know.
absl::StatusOr<std::vector<GetKind>> ParseSweepGets(const std::string& list);

struct CacheSweepConfig {
  WorkloadConfig workload;  // The tree, the storage; its cache_size is each point's.
  std::vector<CacheRow> rows;
  std::vector<double> fractions;  // Of BloomTenFilterBytes(workload.num).
  std::vector<GetKind> kinds = {GetKind::kAbsent, GetKind::kPresent, GetKind::kMixed};
  int64_t warm_reads = 100000;  // Per point, before the measured ones.
  int64_t reads = 100000;       // Measured per point.
  // How the Gets' keys are drawn (key_draw.h): uniform, or hot ranges.
  LookupTraffic traffic;
  std::string db;               // --db: where the DBs are kept (empty: temporary).
  // A live tree: after the fill, every key written again in random order,
  // with this many Gets of kinds[0] (and the traffic) after each of
  // kLiveRounds parts of the writes, so that the census has seen the Gets
  // (their hit share, the tables' sampled reads) when compactions rewrite
  // the tree; 0: the fill alone. REQUIRES: one kind where > 0.
  int64_t live_gets = 0;
  static constexpr int kLiveRounds = 20;
  // A learning phase at each point: after its measure, this many Gets of
  // kinds[0] (other keys, the same draw), then the census's rewrites of
  // tables to the plan they teach (until none for kLearnQuiet, at most
  // kLearnLimit), then the point measured again; 0: none. REQUIRES: one
  // kind where > 0.
  int64_t learn_gets = 0;
  static constexpr std::chrono::seconds kLearnQuiet{5};
  static constexpr std::chrono::seconds kLearnLimit{600};
};

// One level's part of a point's Gets, from RocksDB's per-level perf
// context: which level's filters and blocks the device reads went to.
struct LevelReads {
  int level = 0;
  uint64_t filter_bytes = 0;  // Its live tables' filters.
  // Per Get: its filters' "may be present" for a key its table did not
  // hold, and the block cache's misses of its tables' filter, index and
  // data blocks.
  double false_positives = 0;
  double block_misses = 0;
};

struct CachePoint {
  std::string row;
  int64_t cache_bytes = 0;
  double fraction = 0;  // cache_bytes / BloomTenFilterBytes.
  GetKind kind = GetKind::kAbsent;
  double found = 0;  // Share of the measured Gets that found their key.
  double filter_reads = 0, index_reads = 0, data_reads = 0;  // Per Get.
  double micros = 0;                                          // Per Get.
  uint64_t filter_bytes = 0;                                  // Live tables'.
  // What the cache model (filter/cache_model/cache_reads.h) predicts from
  // the DB's live tables at this cache and found share.
  GetReads model;
  // The same with the Gets spread as the live tables' shares of them say
  // (what the census can see: skew inside a table is lost); the uniform
  // model's under uniform traffic.
  GetReads model_by_tables;
  std::string traffic = "uniform";  // LookupTraffic::Describe() of its Gets.
  std::vector<LevelReads> levels;   // Those with filters or misses.
  // A point measured after a learning phase (CacheSweepConfig::learn_gets):
  // its Gets, the tables the census rewrote and their bytes, and what the
  // DB's load (the fill, and the live rounds) wrote by flushes and
  // compactions; learned_gets 0: as loaded.
  int64_t learned_gets = 0;
  uint64_t rebuilt_tables = 0, rebuilt_bytes = 0, load_bytes = 0;
  double reads() const { return filter_reads + index_reads + data_reads; }
};

// Runs the sweep; `row_done` gets each row's points as soon as they are
// measured (rows in order; within one, caches then kinds). An error names
// the row and the step that failed.
absl::Status RunCacheSweep(const CacheSweepConfig& config,
                           const std::function<void(const std::vector<CachePoint>&)>& row_done);

// The points as a table: for each kind and cache, one line per row with
// filter + index + data = device reads per Get, microseconds per Get and
// filter bytes; `header` once before the first rows.
std::string CacheSweepTable(const std::vector<CachePoint>& points);

// The points as CSV, one line per point.
std::string CacheSweepCsv(const std::vector<CachePoint>& points);

}  // namespace sstfilter::db_bench

#endif  // SSTFILTER_BENCH_DB_BENCH_CACHE_SWEEP_H_

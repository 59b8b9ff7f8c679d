// The share of Gets that find their key (cache_budget.h's hit share), as a
// DB's statistics count it: of the Gets and MultiGet keys that missed the
// memtables (RocksDB's ticker MEMTABLE_MISS), those found in a table
// (GET_HIT_L0 + GET_HIT_L1 + GET_HIT_L2_AND_UP), in RocksDB 7.8 to 11.x. A
// key found deleted in a table counts as not found (its Get still reads the
// tombstone's data block). The tickers are per DB, not per column family,
// and only kept where DBOptions::statistics is set at a level with tickers.
#ifndef SSTFILTER_TABLE_CENSUS_OBSERVED_HIT_SHARE_H_
#define SSTFILTER_TABLE_CENSUS_OBSERVED_HIT_SHARE_H_

#include <cstdint>
#include <optional>

#include "filter/cache_model/spread_fit.h"  // MissWindow
#include "rocksdb/statistics.h"

namespace sstfilter {

// A DB's Gets that reached its tables, and of those the ones that found
// their key there, since its statistics began (or were last reset); and
// the block cache's misses by kind of block meanwhile (BLOCK_CACHE_FILTER_
// MISS, _INDEX_MISS, _DATA_MISS: the blocks read from the files, by Gets
// and also by iterators and compactions).
struct GetOutcomes {
  uint64_t reached = 0;
  uint64_t found = 0;
  uint64_t filter_misses = 0, index_misses = 0, data_misses = 0;
  // The filter bytes of the tables the DB wrote since it opened: the
  // census's own count (no ticker says it), set beside the statistics'.
  uint64_t new_filter_bytes = 0;
  // Whether the cache's misses are counted: false where the Gets are told
  // by the filters' answers (no statistics; filter_answers.h).
  bool cache_counted = true;
};

// The counts in `statistics`; nullopt where it is null.
std::optional<GetOutcomes> GetOutcomesOf(const rocksdb::Statistics* statistics);

// The share over a window of at least `window_gets` Gets that reached the
// tables: the first opens where the statistics began (a DB read before it
// first flushes, as db_bench's read benchmarks do, has its share at the
// first flush), each next where the last closed, so the share follows a
// workload that changes; a reading with fewer Gets since keeps the last
// window's share. Over the same windows, the block cache's misses per Get
// (the spread's fit, filter/cache_model/spread_fit.h).
class HitShareWindow {
 public:
  // Long enough that the share's sampling error is under 1% (binomial, at
  // worst 0.5 / sqrt(10,000) = 0.5%), short enough to close within seconds
  // of a busy DB's Gets.
  static constexpr uint64_t kWindowGets = 10000;

  HitShareWindow() = default;
  explicit HitShareWindow(uint64_t window_gets) : window_gets_(window_gets) {}

  // Adds a reading of the counts; returns the last closed window's share,
  // nullopt until one has closed. Counts below the window's start (the
  // statistics were reset) open a new window there.
  std::optional<double> Observe(const GetOutcomes& now);
  // The last closed window's share; nullopt: none has.
  std::optional<double> share() const { return share_; }
  // The block cache's misses per Get over the last closed window, by kind,
  // its Gets and the filter bytes written meanwhile; nullopt: none has
  // closed in this instance (a carried share has none), or its counts had
  // no misses (GetOutcomes::cache_counted).
  std::optional<MissWindow> misses() const { return misses_; }

  // Takes up the share the DB's last instance saw (a reopened DB's
  // statistics start at zero), as the share until a window closes.
  void Carry(double share);
  // Whether share() is the carried one.
  bool carried() const { return carried_; }

 private:
  uint64_t window_gets_ = kWindowGets;
  GetOutcomes start_;
  std::optional<double> share_;
  std::optional<MissWindow> misses_;
  bool carried_ = false;
};

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_CENSUS_OBSERVED_HIT_SHARE_H_

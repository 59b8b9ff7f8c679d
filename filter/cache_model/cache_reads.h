// Device reads per Get where the filters share a block cache with the index
// and data blocks (partitioned filters and indexes, cache_index_and_filter_
// blocks): the model the cache-aware allocation minimises and the advisor
// reports.
//
// Each block a Get may read is an item of an LRU cache (charged its bytes
// and the cache's overhead per block), requested at a steady rate per
// Get; the cache's hit rate for each follows Che's approximation (Che,
// Tung, Wang, IEEE JSAC 2002; Fricker, Robert, Roberts, ITC 2012): there is
// one characteristic time T, in Gets, such that the blocks requested within
// T of each other stay, with
//   sum over blocks of size * (1 - exp(-rate * T)) = capacity,
// and a block of rate r hits with probability 1 - exp(-r T). RocksDB's LRU
// cache keeps a high-priority pool (high_pri_pool_ratio of it, 0.5 by
// default) at the head of its list for index and filter blocks; data blocks
// enter below it. So the model has two times: T_high, in which the index
// and filter blocks requested fill that pool, and T_low, in which what
// falls out of it and the data blocks fill the rest; an index or filter
// block hits if requested again within T_high + T_low, a data block within
// T_low. A pool that its blocks do not fill leaves the rest to the data.
// A Get checks one filter partition per sorted run it reaches, newest
// first (none where its key falls in a table without a filter); a false
// positive, or the run holding its key, reads an index partition and a
// data block there. Blocks of one kind in one run are requested alike
// where the Gets are uniform; otherwise as the key
// space's popularity (key_popularity.h) spreads them. A Get that finds its
// key finds it in a run with that run's share of the keys. The top level
// of partitioned filters and indexes is pinned and not counted; the
// cache's shards, a data block's promotion once hit and Gets that end in a
// memtable are not modelled.
//
// Pure arithmetic: the advisor fills the runs from a DB's tables, the
// census from the tree it counts.
#ifndef SSTFILTER_FILTER_CACHE_MODEL_CACHE_READS_H_
#define SSTFILTER_FILTER_CACHE_MODEL_CACHE_READS_H_

#include <vector>

#include "filter/allocation/run_blocks.h"
#include "filter/cache_model/key_popularity.h"

namespace sstfilter {

// A workload: the cache bytes the runs' blocks share, and the share of
// Gets that find their key (in [0, 1]).
struct CacheWorkload {
  double capacity_bytes = 0;
  double hit_share = 0;
  // The share of the cache kept for index and filter blocks (RocksDB's
  // high_pri_pool_ratio with cache_index_and_filter_blocks_with_high_priority;
  // 0: one LRU list for every block).
  double high_pri_ratio = kDefaultHighPriRatio;
  static constexpr double kDefaultHighPriRatio = 0.5;  // RocksDB's LRU cache's.
  // How the Gets spread over the key space (uniform by default).
  KeyPopularity popularity = {};
  // What the cache charges a block beyond its bytes in the table.
  double block_overhead_bytes = kRocksDbBlockOverhead;
  // A tree that flushes and compactions rewrite while the Gets run: over a
  // window of window_gets Gets they write new_filter_share times each run's
  // filter blocks (above 1 where they rewrite more than the tree holds),
  // and RocksDB reads each new table's filter partitions into the cache as
  // it opens the table (prefetch_index_and_filter_in_cache, true for a
  // flush's or compaction's output), a miss each whether or not a Get asks
  // for it. 0: a still tree (what the plan is for).
  double new_filter_share = 0;
  double window_gets = 0;
  // RocksDB's LRU cache charges each block the usable size of its
  // allocation and of its block object, and (kFullChargeCacheMetadata, the
  // default) its handle's: about 100 bytes of handle, and 41 (filter
  // partitions), 111 (index partitions) and 96 (data blocks) bytes of
  // object over the blocks' sizes in 7.8.3's bytes.insert tickers. Where
  // filters almost fit, a few percent of the cache decides how many stay.
  static constexpr double kRocksDbBlockOverhead = 180;
};

// The expected device reads per Get of `runs` (newest first) under
// `workload`, with a miss for each new filter block where it has some.
// Runs without blocks are skipped.
GetReads PredictReads(const std::vector<RunBlocks>& runs, const CacheWorkload& workload);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_CACHE_MODEL_CACHE_READS_H_

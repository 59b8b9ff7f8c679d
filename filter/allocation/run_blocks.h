// What a tree's blocks and reads are, as plain data: each sorted run's
// filter, index and data blocks, the device reads per Get by kind of block,
// and the block cache's misses a DB's statistics counted over a window.
// The census and the advisor fill them; the cache model
// (filter/cache_model/) reads and predicts them. No model here.
#ifndef SSTFILTER_FILTER_ALLOCATION_RUN_BLOCKS_H_
#define SSTFILTER_FILTER_ALLOCATION_RUN_BLOCKS_H_

namespace sstfilter {

// One sorted run's blocks, as the block cache sees them.
struct RunBlocks {
  double keys = 0;
  // Its filters: total bytes and blocks (a full filter is one block; a
  // partitioned one, its partitions). 0 blocks: no filter (fp_rate 1).
  double filter_bytes = 0;
  double filter_blocks = 0;
  double fp_rate = 1;  // Per absent key checked.
  // Of its keys, those in tables with a filter: a Get that reaches one of
  // the others checks none (a run whose tables were built under different
  // plans). fp_rate counts those keys at 1.
  double filtered_share = 1;
  // Its index (partitions, or each table's whole index) and data blocks.
  double index_bytes = 0;
  double index_blocks = 0;
  double data_bytes = 0;
  double data_blocks = 0;
  // Share of absent-key Gets that check it (run_reach.h).
  double reach = 1;
};

// Reads per Get from the device, by the kind of block read.
struct GetReads {
  double filter = 0;
  double index = 0;
  double data = 0;
  double total() const { return filter + index + data; }
};

// The block cache's misses a DB's statistics counted over a window of
// Gets, and the tree's churn meanwhile.
struct MissWindow {
  GetReads reads;               // Per Get that reached the tables, by kind of block.
  double gets = 0;              // Those Gets.
  double new_filter_bytes = 0;  // Of the tables written during the window.
};

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_ALLOCATION_RUN_BLOCKS_H_

// Which encoding the RocksDB policy writes a table's filter in, under the
// compact_from_level option (filter/filter_options.h): the compact encoding
// where filters live long and hold most keys (the lower levels), the fast one
// where they are rebuilt often and read hot (flushes, the upper levels).
//
// RocksDB describes the table being built in FilterBuildingContext (the same
// fields from 7.8 to 11.x). The rule, with N = compact_from_level:
//
//   compaction style  table                                  encoding
//   level, universal  flush (reason kFlush) or WAL recovery   the fast one
//                     (kRecovery): memtable -> L0
//                     level_at_creation >= N                  compact
//                     is_bottommost (the last sorted run of   compact
//                     its key range, at whatever level)
//                     level_at_creation -1 (not in the tree:  compact
//                     SstFileWriter, so usually ingested at
//                     the bottom)
//                     any other (above N, not bottommost)     the fast one
//   FIFO, none        every table, flushes included           compact
//
// RocksDB's own ribbonfilter:<bits>:<bloom_before_level> makes the same
// choices with these differences: it ignores is_bottommost (a bottommost
// L1 of a young tree stays Bloom there), and it counts a WAL-recovery table
// as L0 rather than as a flush. Under FIFO (and kCompactionStyleNone) both
// treat every table as bottommost: no table is ever rewritten into a lower
// level, so each one is the last copy of its keys and its filter lives as
// long as it does. N = 0 therefore means "compact for every table but
// flushes", as bloom_before_level=0 does; RocksDB's -1 (Ribbon for flushes
// too) has no counterpart: flushes always get the fast encoding.
//
// The choice is made when a table is built: a table RocksDB moves down
// without rewriting it (a trivial move, e.g. a lone L0 table into an empty
// tree) keeps its filter, fast, until a compaction rewrites it (as
// CompactRange with bottommost_level_compaction=kForce does).
#ifndef SSTFILTER_TABLE_ROCKSDB_LEVEL_ENCODING_H_
#define SSTFILTER_TABLE_ROCKSDB_LEVEL_ENCODING_H_

#include "filter/filter_options.h"
#include "rocksdb/filter_policy.h"

namespace sstfilter {

// Whether the table is the memtable written out to L0: a flush, or the same
// after a restart (the memtable rebuilt from the WAL).
bool IsFlush(const rocksdb::FilterBuildingContext& context);

// The encoding of the table `context` describes. Without compact_from_level,
// options.encoding for every table. REQUIRES: options resolved.
EncodingId EncodingForTable(const FilterOptions& options,
                            const rocksdb::FilterBuildingContext& context);

// The encoding of the tables already at `level` of a tree (0: L0, taken as
// flushes; is_bottommost: the tree's deepest level holding tables), by the
// same rule. REQUIRES: options resolved.
EncodingId EncodingForLevel(const FilterOptions& options, rocksdb::CompactionStyle style,
                          int level, bool is_bottommost);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_ROCKSDB_LEVEL_ENCODING_H_

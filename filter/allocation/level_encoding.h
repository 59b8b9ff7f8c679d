// Which encoding a table's filter is written in, under the
// compact_from_level option (filter/filter_options.h): the compact encoding
// where filters live long and hold most keys (the lower levels), the fast one
// where they are rebuilt often and read hot (flushes, the upper levels).
//
// The rule, with N = compact_from_level, on where a table sits
// (table_site.h):
//
//   tree                 table                                  encoding
//   with levels          a flush (the memtable, or the same       the fast one
//   (leveled, universal) rebuilt from the WAL, written to L0)
//                        level >= N                              compact
//                        bottommost (the last sorted run of      compact
//                        its key range, at whatever level)
//                        level -1 (not in the tree: a table      compact
//                        written outside it, so usually
//                        ingested at the bottom)
//                        any other (above N, not bottommost)     the fast one
//   without levels       every table, flushes included           compact
//   (FIFO, none)
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
#ifndef SSTFILTER_FILTER_ALLOCATION_LEVEL_ENCODING_H_
#define SSTFILTER_FILTER_ALLOCATION_LEVEL_ENCODING_H_

#include "filter/allocation/table_site.h"
#include "filter/encoding_id.h"
#include "filter/filter_options.h"

namespace sstfilter {

// The encoding of a table at `site`. Without compact_from_level,
// options.encoding for every table. REQUIRES: options resolved.
EncodingId EncodingForSite(const FilterOptions& options, const TableSite& site);

// The encoding of the tables already at `level` of a tree with levels (0:
// L0, taken as flushes; is_bottommost: the tree's deepest level holding
// tables). REQUIRES: options resolved.
EncodingId EncodingForLevel(const FilterOptions& options, int level, bool is_bottommost);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_ALLOCATION_LEVEL_ENCODING_H_

// sstfilter_sst --db DIR: what the filters of a RocksDB database cost and
// save, and what per-level accuracy (optimize_levels) would give it.
//
// The DB is opened as a secondary instance (safe beside the process that
// writes it; its options from its latest OPTIONS file), its live tables
// listed per column family with their levels and key ranges, and each
// table's filter read by our parser (any policy's: ours, RocksDB's built-in
// Bloom and Ribbon, tools/builtin_filter.h) and modelled. Per level it
// prints tables, keys, filter bytes, the filters' kind, their modelled FP
// and reach, and the data-block reads an absent-key Get costs; then
// tools/tree_projection.h's projection for optimize_levels.
#ifndef SSTFILTER_TOOLS_DB_ADVISOR_H_
#define SSTFILTER_TOOLS_DB_ADVISOR_H_

#include <string>

namespace sstfilter {

// Prints the report; returns the exit status (sst_tool.h's codes).
int AdviseDb(const std::string& dir, bool verify_checksums);

}  // namespace sstfilter

#endif  // SSTFILTER_TOOLS_DB_ADVISOR_H_

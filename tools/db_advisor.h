// sstfilter_sst --db DIR: what the filters of a RocksDB database cost and
// save, and what per-level accuracy (optimize_levels) would give it.
//
// Its live tables are listed and read by tools/live_tables.h (their levels,
// key ranges and filters, modelled). Per level it prints tables, keys,
// filter bytes, the filters' kind, their modelled FP and reach, and the
// data-block reads an absent-key Get costs; then filter/allocation/tree_projection.h's
// projection for optimize_levels; then, at a block cache (given, or the
// DB's last open's), the device reads per Get the filters cost there and
// what cache_aware would read (cache_advice.h). A live table that cannot be read is named
// with what is wrong with it, the totals say they leave it out, and the run
// fails.
#ifndef SSTFILTER_TOOLS_DB_ADVISOR_H_
#define SSTFILTER_TOOLS_DB_ADVISOR_H_

#include <optional>
#include <string>

namespace sstfilter {

// The block cache the report's cache section assumes (cache_advice.h):
// cache_mb, or else the DB's LOG's; hit_share, or else the DB's statistics' (as its
// census left them in the traffic summary), or else kAssumedHitShare.
struct CacheQuestion {
  std::optional<double> cache_mb;
  std::optional<double> hit_share;
};

// What AdviseDb prints: the report, or each column family's tree as a
// decision case (tree_case.h).
enum class DbOutput { kReport, kTreeCase };

// Prints the report; returns the exit status (sst_tool.h's codes).
int AdviseDb(const std::string& dir, bool verify_checksums, const CacheQuestion& cache = {},
             DbOutput output = DbOutput::kReport);

}  // namespace sstfilter

#endif  // SSTFILTER_TOOLS_DB_ADVISOR_H_

// The advisor's view of a DB's lookups (sstfilter_sst --db): the shares of
// the Gets RocksDB sampled for each table, as the level census of the
// process serving them left them in the DB's directory
// (table/census/traffic_file.h), and what access-aware allocation would
// read by that traffic at the same filter bytes.
#ifndef SSTFILTER_TOOLS_TRAFFIC_REPORT_H_
#define SSTFILTER_TOOLS_TRAFFIC_REPORT_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "filter/allocation/filters_by_run.h"
#include "table/census/traffic_file.h"

namespace sstfilter {

// The summary in `dir`; nullopt when there is none; an error naming what
// is wrong with one that cannot be read.
absl::StatusOr<std::optional<TrafficSummary>> ReadTrafficSummary(const std::string& dir);

// The share of the Gets each table of `runs` sees: the summary's, or, for a
// table it does not name (built since it was written), its run's reach
// over the run's keys. Empty if the summary names none of them.
TableShare SharesOf(const std::vector<TreeRun>& runs, const TableShares& shares);

// Prints, for one column family's `runs`, the share of the Gets that
// reaches each level and the projection by that traffic.
void PrintTraffic(const std::vector<TreeRun>& runs, const TableShares& shares);

}  // namespace sstfilter

#endif  // SSTFILTER_TOOLS_TRAFFIC_REPORT_H_

// The live tables of a RocksDB database, each read and checked: what
// sstfilter_sst --db reports on (db_advisor.h).
//
// The DB is opened read-only with its latest OPTIONS file's options, only to
// list its live tables from the MANIFEST (nothing is written to its
// directory; safe while another process writes it). Each table is then read
// by the inspector (checked_table.h): its filter modelled (ours, RocksDB's
// built-in Bloom and Ribbon, tools/builtin_filter.h), or what is wrong with
// it named.
#ifndef SSTFILTER_TOOLS_LIVE_TABLES_H_
#define SSTFILTER_TOOLS_LIVE_TABLES_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "filter/allocation/filters_by_run.h"
#include "filter/filter_options.h"
#include "filter/plan/tables_against_plan.h"

namespace sstfilter {

// One column family's live tables.
struct FamilyTables {
  std::string name;
  bool bytewise = true;  // Its comparator orders keys bytewise.
  std::vector<TableFilters> read;
  // One line for each table that could not be read: "PATH (L1): why".
  std::vector<std::string> unreadable;
  // Its filter policy's options (resolved), as its OPTIONS file makes it,
  // where that is sstfilter's policy; nullopt otherwise.
  std::optional<FilterOptions> policy;
  // How RocksDB builds its filters beyond the policy's choice (its options'
  // optimize_filters_for_hits).
  TableHost host;
};

// Every column family's tables, in the OPTIONS file's order. An error says
// why the DB could not be opened (its message names `dir`). verify_checksums
// checks the blocks read: the metaindex, meta, index and filter blocks.
absl::StatusOr<std::vector<FamilyTables>> ReadLiveTables(const std::string& dir,
                                                         bool verify_checksums);

}  // namespace sstfilter

#endif  // SSTFILTER_TOOLS_LIVE_TABLES_H_

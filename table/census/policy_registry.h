// sstfilter's RocksDB policies, by the address of each policy object, for
// what the census reaches only through a DB's options (its table factory's
// filter_policy), as RocksDB tells a filter reader no table, level or DB
// and the census is told no policy: each policy's readers' sampled answers
// (filter_answers.h) and what the policy would build for a table
// today (the rebuilds, off_plan_tables.h). The policy registers itself as
// it is made and leaves as it is destroyed (table/rocksdb/).
#ifndef SSTFILTER_TABLE_CENSUS_POLICY_REGISTRY_H_
#define SSTFILTER_TABLE_CENSUS_POLICY_REGISTRY_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "filter/allocation/table_site.h"
#include "rocksdb/table.h"
#include "table/census/filter_answers.h"

namespace sstfilter {

// The bits per key the policy would give a table at `site` (its entries
// set) of the column family `column_family` of the DB with census key
// `db` (census_registry.h), under the column family's table options
// `table`, were the table built now: 0 for no filter; nullopt where its
// filters are not sized by the tree (not optimize_levels, no tree known
// for the DB) or the policy was rejected.
using PlannedBits = std::function<std::optional<double>(
    const TableSite& site, const void* db, const std::string& column_family,
    const rocksdb::BlockBasedTableOptions& table)>;

struct RegisteredPolicy {
  // Held by its readers too, which RocksDB's block cache may keep after the
  // policy is gone.
  std::shared_ptr<FilterAnswers> answers;
  PlannedBits planned_bits;
};

// Registers `policy` (its constructor); returns its answers' counts.
std::shared_ptr<FilterAnswers> RegisterPolicy(const void* policy, PlannedBits planned_bits);
// Drops the policy's entry (its destructor): its readers keep their counts.
void UnregisterPolicy(const void* policy);
// What `policy` registered; nullopt if nothing (not sstfilter's policy).
// The caller holds the policy (its DB's options) while it calls
// planned_bits.
std::optional<RegisteredPolicy> RegisteredPolicyOf(const void* policy);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_CENSUS_POLICY_REGISTRY_H_

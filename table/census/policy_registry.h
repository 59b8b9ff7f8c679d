// sstfilter's RocksDB policies, by the address of each policy object, for
// what the census reaches only through a DB's options (its table factory's
// filter_policy), as RocksDB tells a filter reader no table, level or DB
// and the census is told no policy: each policy's readers' sampled answers
// (filter_answers.h) and how it sizes a column family's filters (the
// rebuilds, off_plan_tables.h). The policy registers itself as
// it is made and leaves as it is destroyed (table/rocksdb/).
#ifndef SSTFILTER_TABLE_CENSUS_POLICY_REGISTRY_H_
#define SSTFILTER_TABLE_CENSUS_POLICY_REGISTRY_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "filter/filter_options.h"
#include "filter/plan/cache_budget.h"
#include "rocksdb/table.h"
#include "table/census/filter_answers.h"

namespace sstfilter {

// How a policy sizes the filters of a column family with table options
// `table`: its options (resolved) and, with cache_aware, the block cache
// they are sized for (nullopt: none, as optimize_levels alone); nullopt
// where the policy was rejected.
struct PolicySizing {
  FilterOptions options;
  std::optional<CacheSite> cache;
};
using SizingOf =
    std::function<std::optional<PolicySizing>(const rocksdb::BlockBasedTableOptions& table)>;

struct RegisteredPolicy {
  // Held by its readers too, which RocksDB's block cache may keep after the
  // policy is gone.
  std::shared_ptr<FilterAnswers> answers;
  SizingOf sizing;
};

// Registers `policy` (its constructor); returns its answers' counts.
std::shared_ptr<FilterAnswers> RegisterPolicy(const void* policy, SizingOf sizing);
// Drops the policy's entry (its destructor): its readers keep their counts.
void UnregisterPolicy(const void* policy);
// What `policy` registered; nullopt if nothing (not sstfilter's policy).
// The caller holds the policy (its DB's options) while it calls sizing.
std::optional<RegisteredPolicy> RegisteredPolicyOf(const void* policy);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_CENSUS_POLICY_REGISTRY_H_

// What the census says when a column family's filter policy is not
// sstfilter's. A census is only installed for sstfilter's per-level policy,
// and RocksDB drops some option strings naming sstfilter.bloom before
// sstfilter's parser sees them (a map missing its closing brace, among
// others: docs/rocksdb.md#filter-policy-strings-rocksdb-drops); the DB then
// opens with no filter policy, and every table it writes from then on,
// compactions of sstfilter's tables too, has no filter: the filter is lost
// for good, silently. The census cannot stop a flush or a compaction (nor
// should it: the data is whole, only unfiltered), so it says so at ERROR in
// the DB's LOG before the first table it sees built, and again (at most
// once a minute) when a compaction is about to rewrite tables that carry
// sstfilter's filters. Only the default column family's policy is known
// (a listener is not given the others' options).
#ifndef SSTFILTER_TABLE_CENSUS_POLICY_GUARD_H_
#define SSTFILTER_TABLE_CENSUS_POLICY_GUARD_H_

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "rocksdb/db.h"

namespace sstfilter {

// The default column family's filter policy, described for a message,
// where it is not sstfilter's ("none (filter_policy is nullptr)",
// "rocksdb.BuiltinBloomFilter"); nullopt where it is.
std::optional<std::string> ForeignFilterPolicy(rocksdb::DB* db);

class PolicyGuard {
 public:
  static constexpr std::chrono::seconds kRepeatEvery{60};

  // At a DB instance's first event: says so if its policy is foreign,
  // naming how many of the live tables it knows (`tables`) carry
  // sstfilter's filters (`ours`).
  void Check(rocksdb::DB* db, uint64_t ours, uint64_t tables);
  // Before a compaction (job `job_id`) of `ours` tables with sstfilter's
  // filters: says so if the policy was foreign at Check, at most once per
  // kRepeatEvery.
  void BeforeCompaction(rocksdb::DB* db, int job_id, uint64_t ours);

 private:
  std::optional<std::string> foreign_;
  std::optional<std::chrono::steady_clock::time_point> said_;
  uint64_t unsaid_ = 0;  // Compactions since, not said.
};

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_CENSUS_POLICY_GUARD_H_

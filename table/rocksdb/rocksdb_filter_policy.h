// sstfilter's Bloom policy for RocksDB's block-based table.
//
//   rocksdb::BlockBasedTableOptions table_options;
//   table_options.filter_policy = sstfilter::NewRocksDbFilterPolicy({}).value();
//
// or, after EnsureRocksDbFilterPoliciesRegistered() (table/rocksdb/registration.h),
// through option strings: "filter_policy=sstfilter.bloom:10" or
// "filter_policy={id=sstfilter.bloom;bits_per_key=10;format=cache_local}".
//
// Filters are written in the configured encoding (per table with
// compact_from_level: "sstfilter.bloom:10:cache_local:compact_from_level:2",
// "{id=sstfilter.bloom;format=cache_local;compact_from_level=2}", the rule in
// filter/allocation/level_encoding.h) and read in every encoding (the final byte says which,
// filter/encodings.h), under the compatibility name kBloomPolicyName:
// RocksDB only hands us filter blocks written by us.
#ifndef SSTFILTER_TABLE_ROCKSDB_BLOOM_POLICY_H_
#define SSTFILTER_TABLE_ROCKSDB_BLOOM_POLICY_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "filter/filter_options.h"
#include "rocksdb/filter_policy.h"

namespace sstfilter {

// The policy, or InvalidArgument naming a bad option value.
absl::StatusOr<std::unique_ptr<rocksdb::FilterPolicy>> NewRocksDbFilterPolicy(
    const FilterOptions& options);

// The policy an id (filter/filter_options.h) names.
// A bad id still gives a policy, one that fails PrepareOptions and
// ValidateOptions (so DB::Open) with a message naming the bad value and
// builds no filter: RocksDB's default option parsing drops a factory's
// error and would silently run without the filter.
std::unique_ptr<rocksdb::FilterPolicy> NewRocksDbFilterPolicyFromId(const std::string& id);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_ROCKSDB_BLOOM_POLICY_H_

// sstfilter's Bloom policy for LevelDB (leveldb::Options::filter_policy).
//
//   auto policy = sstfilter::NewLevelDbFilterPolicyFromString("sstfilter.bloom:10").value();
//   leveldb::Options options;
//   options.filter_policy = policy.get();  // The policy must outlive the DB.
//
// Option strings and FilterOptions are those of the RocksDB policy
// (filter/filter_options.h), with the same validation and messages; a bad
// value is an InvalidArgument naming it, never an abort.
//
// LevelDB stores a table's filter block under "filter.<Name()>" and hands a
// policy only blocks stored under its own name. So Name() depends on the
// encoding new filters are written in:
//   - leveldb: kLevelDbBuiltinPolicyName, LevelDB's own. The bytes equal
//     leveldb::NewBloomFilterPolicy(bits_per_key)'s for integral bits_per_key
//     (for fractional ones they differ but stay LevelDB-readable: each filter
//     carries its k and length), so databases move freely between this
//     policy and LevelDB's built-in one, filters included.
//   - every other encoding: kBloomPolicyName ("sstfilter.bloom"). LevelDB's
//     built-in policy ignores those blocks (correct answers, no filter), and
//     this policy ignores the built-in's blocks.
// Whatever it writes, the policy reads filters of every encoding (the final
// byte says which, filter/encodings.h), from the bytes LevelDB hands each
// KeyMayMatch, building no reader (OneShotQuery, filter/filter_policy.h).
#ifndef SSTFILTER_TABLE_LEVELDB_LEVELDB_FILTER_POLICY_H_
#define SSTFILTER_TABLE_LEVELDB_LEVELDB_FILTER_POLICY_H_

#include <memory>
#include <string_view>

#include "absl/status/statusor.h"
#include "filter/filter_options.h"
#include "filter/leveldb/bloom.h"  // kLevelDbBuiltinPolicyName
#include "leveldb/filter_policy.h"

namespace sstfilter {

// The Name() of LevelDB's built-in Bloom policy (LevelDB 1.x, and so of
// every database it wrote).

// The policy, or InvalidArgument naming a bad option value.
absl::StatusOr<std::unique_ptr<const leveldb::FilterPolicy>> NewLevelDbFilterPolicy(
    const FilterOptions& options);

// The policy an id ("sstfilter.bloom[:<bits_per_key>[:<encoding>]]") names,
// or InvalidArgument naming the bad part.
absl::StatusOr<std::unique_ptr<const leveldb::FilterPolicy>> NewLevelDbFilterPolicyFromString(
    std::string_view id);

// The Name() of the policy writing filters in format.
// REQUIRES: IsKnownEncoding(format).
const char* LevelDbFilterPolicyName(EncodingId encoding);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_LEVELDB_LEVELDB_FILTER_POLICY_H_

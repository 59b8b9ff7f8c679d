// The options of sstfilter's policy, their validation, and their spelling in
// option strings. One type and one set of messages for every host: the
// LevelDB-shaped policy (filter_policy.h), RocksDB's (table/rocksdb/) and
// the tools all take FilterOptions, and a bad value gets the same message
// whichever way it arrives.
//
// Option strings ("policy ids"):
//   sstfilter.bloom                       (defaults)
//   sstfilter.bloom:<bits_per_key>[:<field>]...
//   sstfilter.bloom:fp_rate:<p>[:<field>]...
// where the accuracy comes first and each field after it, at most once and
// in any order, is an encoding name (banded) or one of the named fields of
// option_fields.h: compact_from_level:<level>, optimize_levels,
// access_aware, budget_mb:<MiB>, cache_aware, cache_share:<F>, hit_share:<F>,
// rebuild_mb_s:<MiB>.
// FormatPolicyId writes one back: ParsePolicyId(FormatPolicyId(o)) == o.
// Fields are separated by ':' only: RocksDB reads an '=' anywhere in a
// filter_policy value as an option map ("a=b"), so an id holding one would
// not survive RocksDB's in-place option parsing.
#ifndef SSTFILTER_FILTER_FILTER_OPTIONS_H_
#define SSTFILTER_FILTER_FILTER_OPTIONS_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "filter/encoding_id.h"
#include "filter/option_values.h"

namespace sstfilter {

// The policy's name in option strings, Name() and CompatibilityName().
inline constexpr char kBloomPolicyName[] = "sstfilter.bloom";

// The key of FilterOptions::encoding in RocksDB's option maps and OPTIONS
// files, and in messages. "format" since the first release, so that every
// OPTIONS file written reads back; in ids the encoding goes by position.
inline constexpr char kEncodingKey[] = "format";

// The per-level option's name, in ids and in RocksDB's option maps.
inline constexpr char kCompactFromLevelName[] = "compact_from_level";
// Its largest value: far below any tree (RocksDB's default has 7 levels),
// so a larger one is a typo; a value past the tree's last level means
// "compact in the bottommost level only".
inline constexpr int kMaxCompactFromLevel = 100;
// Its spelling for "not set" where every option is written out (RocksDB's
// option maps and OPTIONS files).
inline constexpr char kCompactFromLevelUnset[] = "none";

// The FP-rate option's name, and its spelling for "not set" (bits_per_key
// rules) where every option is written out.
inline constexpr char kFpRateName[] = "fp_rate";

// The per-level option's name, in ids (a field with no value) and in
// RocksDB's option maps (true or false).
inline constexpr char kOptimizeLevelsName[] = "optimize_levels";
inline constexpr char kFpRateUnset[] = "none";
// The access-aware option's name, as optimize_levels'.
inline constexpr char kAccessAwareName[] = "access_aware";
// The byte budget's name, in ids (budget_mb:<MiB>) and option maps, and
// its spelling for "not set" where every option is written out; its largest
// value (1 PiB: a larger one is a typo).
inline constexpr char kBudgetName[] = "budget_mb";
inline constexpr char kBudgetUnset[] = "none";
inline constexpr double kMaxBudgetMb = 1024.0 * 1024 * 1024;
// The least budget that means something: 0.001 MiB (about 1 KiB), a
// quarter of one 4 KiB filter partition; below it no table keeps a filter
// worth its probes (4.9e-324 was accepted and gave filters of no bytes).
inline constexpr double kMinBudgetMb = 0.001;
// The least bits per key an option may ask: below one bit per key a Bloom
// filter passes over 63% of absent keys (k = 1: 1 - e^-1) and costs a
// probe for what it saves; RocksDB's own Bloom filter treats less than one
// as one, and less than a half as no filter. A per-level allocation still
// gives single tables fewer where the tree says so.
inline constexpr double kMinBitsPerKey = 1.0;
// The cache-aware option's name, as optimize_levels'; its two shares',
// in ids (cache_share:<F>) and option maps, and their spelling for "not
// set" where every option is written out.
inline constexpr char kCacheAwareName[] = "cache_aware";
inline constexpr char kCacheShareName[] = "cache_share";
inline constexpr char kHitShareName[] = "hit_share";
inline constexpr char kShareUnset[] = "none";
// The rebuild loop's pace's name (rebuild_mb_s:<MiB>: MiB of tables
// rewritten a second at most), its spelling for "not set" (the default
// pace), the default, and its largest value (1 TiB a second: a typo).
inline constexpr char kRebuildName[] = "rebuild_mb_s";
inline constexpr char kRebuildUnset[] = "none";
inline constexpr double kDefaultRebuildMbPerSecond = 16;
inline constexpr double kMaxRebuildMbPerSecond = 1024.0 * 1024;
// The least cache_share: one column family among a thousand sharing one
// block cache. Below it the filters' share of any cache RocksDB users run
// (8 MiB to hundreds of GiB) is a few KiB at most: a typo, not a setup
// (4.9e-324 was accepted and planned filters for a cache of no bytes).
inline constexpr double kMinCacheShare = 0.001;

// The part of the options only a host that tells the policy each table's
// level and tree takes (RocksDB's): the per-level allocation and the
// encoding by level. The LevelDB-shaped policy (filter_policy.h) refuses
// any of it set, naming the field (CheckHostFree, option_fields.h).
struct PerLevelOptions {
  // Tables created at this level or below, and bottommost ones, are written
  // in kCompact; flushes and tables above it in `encoding`
  // (filter/allocation/level_encoding.h has the rule). Unset: `encoding`
  // for every table. Must be in [0, kMaxCompactFromLevel] and `encoding`
  // must not be kCompact.
  std::optional<int> compact_from_level;
  // bits_per_key is the average over the tree, and each table's filter
  // gets the accuracy that minimises the data blocks an absent-key lookup
  // reads: its sorted run's FP proportional to the run's keys
  // (filter/allocation/run_allocation.h; the runs come from
  // table/census/census_listener.h). Not with fp_rate.
  bool optimize_levels = false;
  // With optimize_levels: each run's FP is weighed by the lookups its
  // tables saw (RocksDB's sampled reads), not by its keys' share of the key
  // space, and a table's by those of its key range
  // (filter/allocation/tree_traffic.h); until a DB has seen enough lookups
  // (a new DB, a reopened one), as optimize_levels alone.
  bool access_aware = false;
  // With optimize_levels: the most filter memory a column family's live
  // tables may hold, in MiB (2^20 bytes). The allocation then spends the
  // lesser of this and bits_per_key over the tree's keys: the budget holds
  // in a tree too big for bits_per_key, bits_per_key caps the accuracy of
  // one smaller than the budget (and sizes tables built before the census
  // knows the tree). In [kMinBudgetMb, kMaxBudgetMb].
  std::optional<double> budget_mb = std::nullopt;
  // With optimize_levels: the filters are sized for the block cache they
  // live in (cache_index_and_filter_blocks): the budget is the filter bytes
  // that stay cached beside the index and data blocks Gets read
  // (filter/plan/cache_budget.h), the lesser of it and budget_mb when both
  // are set. Without a block cache holding the filters, as optimize_levels
  // alone (the DB's log says so when it opens).
  bool cache_aware = false;
  // With cache_aware: the share of the block cache's capacity that this
  // column family's blocks hold, where one cache serves several column
  // families or DBs. In [kMinCacheShare, 1]; unset: the whole cache.
  std::optional<double> cache_share = std::nullopt;
  // With cache_aware: the share of Gets that find their key, which decides
  // how many index and data blocks compete with the filters. In [0, 1];
  // unset: the DB's statistics' where the census reads them, else
  // kAssumedHitShare (cache_budget.h).
  std::optional<double> hit_share = std::nullopt;
  // With optimize_levels: the most MiB a second of tables the census may
  // rewrite in place to bring their filters to today's plan
  // (table/census/rebuild_loop.h), each only where the reads it saves pay
  // for it (filter/plan/rebuild_gain.h with cache_aware, else
  // fp_rebuilds.h, which also frees bits where the tree holds more than
  // the plan spends). In [0, kMaxRebuildMbPerSecond]; 0: no rewrites;
  // unset: kDefaultRebuildMbPerSecond.
  std::optional<double> rebuild_mb_s = std::nullopt;

  bool operator==(const PerLevelOptions& o) const {
    return compact_from_level == o.compact_from_level && optimize_levels == o.optimize_levels &&
           access_aware == o.access_aware && budget_mb == o.budget_mb &&
           cache_aware == o.cache_aware && cache_share == o.cache_share &&
           hit_share == o.hit_share && rebuild_mb_s == o.rebuild_mb_s;
  }
};

struct FilterOptions {
  // Accuracy, as bits per key of a Bloom filter. Must be finite and in
  // [kMinBitsPerKey, kMaxBitsPerKey].
  double bits_per_key = 10.0;
  // When set, replaces bits_per_key: each filter gets the fewest bits/key
  // at which its encoding's own FP model, at the filter's number of keys,
  // is at most fp_rate (filter/fp_target.h). Must be in (0, 1) and
  // reachable by the encodings the options write.
  std::optional<double> fp_rate;
  // Which encoding new filters are written in (the key kEncodingKey in
  // option maps). Readers accept every encoding.
  EncodingId encoding = kDefaultEncoding;
  // RocksDB only; its defaults everywhere else.
  PerLevelOptions per_level;

  bool operator==(const FilterOptions& o) const {
    return bits_per_key == o.bits_per_key && fp_rate == o.fp_rate && encoding == o.encoding &&
           per_level == o.per_level;
  }
};

// The options checked, as a policy keeps them (filter/accuracy.h reads
// them), or InvalidArgument naming a bad value or combination.
absl::StatusOr<FilterOptions> ResolveFilterOptions(const FilterOptions& options);

// Parses a policy id (see the top of this file).
absl::StatusOr<FilterOptions> ParsePolicyId(std::string_view id);
// REQUIRES: options resolved. With fp_rate, the id holds it, not bits_per_key.
std::string FormatPolicyId(const FilterOptions& options);

// The options a policy id states, by their names in option maps
// ("bits_per_key", kEncodingKey, kFpRateName, kCompactFromLevelName, ...):
// what an option map beside the id ({id=<id>;format=...}) must not say
// otherwise. REQUIRES: ParsePolicyId(id) is ok.
std::vector<std::string> StatedOptions(std::string_view id);

// Strict parsers for the two values the tools take as flags too (every
// field's parser: option_fields.h).
absl::StatusOr<double> ParseBitsPerKeyValue(std::string_view value);
absl::StatusOr<EncodingId> ParseEncodingValue(std::string_view value);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_FILTER_OPTIONS_H_

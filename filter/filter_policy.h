// The public filter policy interface, shaped like LevelDB's FilterPolicy.
//
// A policy turns the keys of one table (or one filter partition) into filter
// bytes, and answers "may this key be in the set?" from those bytes alone.
#ifndef SSTFILTER_FILTER_FILTER_POLICY_H_
#define SSTFILTER_FILTER_FILTER_POLICY_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "filter/encodings.h"
#include "filter/filter_options.h"
#include "filter/simd_level.h"

namespace sstfilter {

class FilterPolicy {
 public:
  virtual ~FilterPolicy() = default;

  // Names the policy (and the family of encodings it reads). Hosts hand a
  // policy only filters written under its name.
  virtual const char* Name() const = 0;

  // Appends a filter summarising keys to *dst. keys may contain duplicates.
  virtual void CreateFilter(absl::Span<const std::string_view> keys,
                            std::string* dst) const = 0;

  // Whether key may be among the keys filter was created from. Must return
  // true for every such key; damaged or foreign filters answer true.
  virtual bool KeyMayMatch(std::string_view key,
                           std::string_view filter) const = 0;
};

// One query of a filter of any encoding, read from its bytes for that query
// alone: what FilterPolicy::KeyMayMatch does, handed bytes with nothing
// parsed kept between calls (LevelDB's FilterPolicy is asked so, key by key).
//
// Answers what the reader of the encoding that recognises the bytes answers
// (filter/encodings.h: VisitEncodingOf, then E::Reader(filter).MayMatch(key);
// "may match" when none does): damaged, truncated or unknown bytes may match,
// the empty filter matches nothing, never a false negative. But it builds no
// reader: it asks that encoding's E::Reader::MayMatchOnce, which parses the
// bytes with the parse its reader's constructor uses and probes with its
// probe math. No allocation, and the SIMD kernels are picked once, here
// (each encoding's OnceContext), not per query. Safe to use from several
// threads at once.
class OneShotQuery {
 public:
  // simd: the kernels' level; a level the CPU lacks falls back to a lower
  // one (ClampSimdLevel). Every level gives the same answers.
  explicit OneShotQuery(SimdLevel simd = BestSimdLevel());

  bool KeyMayMatch(std::string_view key, std::string_view filter) const;

  SimdLevel simd_level() const { return simd_; }

 private:
  SimdLevel simd_;
  OnceContexts contexts_;
};

// The policy named kBloomPolicyName: writes filters in options.encoding and
// reads filters of every encoding (its KeyMayMatch is a OneShotQuery's).
// InvalidArgument names a bad option value, and refuses the options'
// per_level part set (naming its field): this interface has no levels.
absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewFilterPolicy(
    const FilterOptions& options);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_FILTER_POLICY_H_

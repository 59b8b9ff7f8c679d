// The public filter policy interface, shaped like LevelDB's FilterPolicy.
//
// A policy turns the keys of one table (or one filter partition) into filter
// bytes, and answers "may this key be in the set?" from those bytes alone.
#ifndef SSTFILTER_FILTER_FILTER_POLICY_H_
#define SSTFILTER_FILTER_FILTER_POLICY_H_

#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "filter/filter_options.h"

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

// The policy named kBloomPolicyName: writes filters in options.encoding and
// reads filters of every encoding. InvalidArgument names a bad option value,
// and refuses compact_from_level: this interface has no levels.
absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewFilterPolicy(
    const FilterOptions& options);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_FILTER_POLICY_H_

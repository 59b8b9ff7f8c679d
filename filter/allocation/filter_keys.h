// What a filter being built holds, as its setting is chosen at Finish: its
// entries and the least and greatest user key (or prefix) added, which
// access-aware allocation reads its lookups from (table_fp_target.h).
#ifndef SSTFILTER_FILTER_ALLOCATION_FILTER_KEYS_H_
#define SSTFILTER_FILTER_ALLOCATION_FILTER_KEYS_H_

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace sstfilter {

struct FilterKeys {
  size_t entries = 0;
  bool has_range = false;  // Whether the keys below were tracked.
  std::string smallest, largest;
};

// The setting (bits/key) of a filter holding `keys`.
using FilterSetting = std::function<double(const FilterKeys& keys)>;

// The least and greatest of the keys seen since the last Reset, bytewise.
// Keys reach a table's filter in order, but prefixes (a prefix extractor)
// interleave with them, so both ends are compared.
class KeyRangeTracker {
 public:
  void Add(std::string_view key) {
    if (!any_ || key < smallest_) smallest_.assign(key.data(), key.size());
    if (!any_ || key > largest_) largest_.assign(key.data(), key.size());
    any_ = true;
  }
  // Into `keys` (has_range set), then empty.
  void MoveInto(FilterKeys* keys) {
    keys->has_range = any_;
    keys->smallest.swap(smallest_), keys->largest.swap(largest_);
    Reset();
  }
  void Reset() { any_ = false; }

 private:
  bool any_ = false;
  std::string smallest_, largest_;
};

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_ALLOCATION_FILTER_KEYS_H_

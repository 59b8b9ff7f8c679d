#include "filter/run_reach.h"

#include <algorithm>
#include <utility>

namespace sstfilter {

namespace {

// The run's ranges merged into disjoint intervals, in order.
std::vector<std::pair<std::string, std::string>> Merged(const std::vector<KeyRange>& run) {
  std::vector<std::pair<std::string, std::string>> ranges;
  for (const KeyRange& r : run) ranges.emplace_back(r.smallest, r.largest);
  std::sort(ranges.begin(), ranges.end());
  std::vector<std::pair<std::string, std::string>> merged;
  for (auto& r : ranges) {
    if (!merged.empty() && r.first <= merged.back().second) {
      merged.back().second = std::max(merged.back().second, r.second);
    } else {
      merged.push_back(std::move(r));
    }
  }
  return merged;
}

}  // namespace

double RunReach(const std::vector<KeyRange>& run, const std::vector<KeyRange>& reference) {
  uint64_t total = 0, covered = 0;
  const auto merged = Merged(run);
  for (const KeyRange& t : reference) {
    total += t.keys;
    // The first interval ending at or after t starts; it overlaps t if it
    // starts at or before t ends.
    const auto it = std::lower_bound(
        merged.begin(), merged.end(), t.smallest,
        [](const std::pair<std::string, std::string>& m, const std::string& key) {
          return m.second < key;
        });
    if (it != merged.end() && it->first <= t.largest) covered += t.keys;
  }
  return total == 0 ? 1.0 : static_cast<double>(covered) / static_cast<double>(total);
}

bool RangesOrderedBytewise(const std::vector<KeyRange>& ranges) {
  return std::all_of(ranges.begin(), ranges.end(),
                     [](const KeyRange& r) { return r.smallest <= r.largest; });
}

}  // namespace sstfilter

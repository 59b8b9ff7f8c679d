#include "filter/allocation/run_reach.h"

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

// The bytes of `key` past `prefix` bytes, read as a base-256 fraction in
// [0, 1) (the first 8: enough to place keys between two bounds).
double Fraction(const std::string& key, size_t prefix) {
  double value = 0, scale = 1.0 / 256;
  for (size_t i = prefix; i < key.size() && i < prefix + 8; ++i, scale /= 256) {
    value += static_cast<unsigned char>(key[i]) * scale;
  }
  return value;
}

// The share of a table's keys between lo and hi (within its bounds), its
// keys taken as spread evenly between its bounds.
class TableSpan {
 public:
  explicit TableSpan(const KeyRange& t) : t_(t) {
    const auto [a, b] = std::mismatch(t.smallest.begin(), t.smallest.end(), t.largest.begin(),
                                      t.largest.end());
    prefix_ = static_cast<size_t>(a - t.smallest.begin());
    width_ = Fraction(t.largest, prefix_) - Fraction(t.smallest, prefix_);
  }

  // REQUIRES: [lo, hi] overlaps the table's bounds.
  double Share(const std::string& lo, const std::string& hi) const {
    if (width_ <= 0) return 1;  // One key (or bounds alike to 8 bytes).
    const double from = Fraction(std::max(lo, t_.smallest), prefix_);
    const double to = Fraction(std::min(hi, t_.largest), prefix_);
    return std::clamp((to - from) / width_, 0.0, 1.0);
  }

 private:
  const KeyRange& t_;
  size_t prefix_ = 0;
  double width_ = 0;
};

}  // namespace

double RunReach(const std::vector<KeyRange>& run, const std::vector<KeyRange>& reference) {
  double total = 0, covered = 0;
  const auto merged = Merged(run);
  for (const KeyRange& t : reference) {
    total += static_cast<double>(t.keys);
    // The first interval ending at or after t starts, and those after it
    // that start at or before t ends.
    auto it = std::lower_bound(
        merged.begin(), merged.end(), t.smallest,
        [](const std::pair<std::string, std::string>& m, const std::string& key) {
          return m.second < key;
        });
    const TableSpan span(t);
    double share = 0;
    for (; it != merged.end() && it->first <= t.largest; ++it) {
      share += span.Share(it->first, it->second);
    }
    covered += static_cast<double>(t.keys) * std::min(share, 1.0);
  }
  return total == 0 ? 1.0 : covered / total;
}

double RangeShare(const KeyRange& table, const std::string& lo, const std::string& hi) {
  if (hi < table.smallest || table.largest < lo) return 0;
  return TableSpan(table).Share(lo, hi);
}

std::vector<double> RunReaches(const std::vector<std::vector<KeyRange>>& runs) {
  std::vector<KeyRange> reference;
  for (const std::vector<KeyRange>& run : runs) {
    reference.insert(reference.end(), run.begin(), run.end());
  }
  std::vector<double> reach;
  for (const std::vector<KeyRange>& run : runs) reach.push_back(RunReach(run, reference));
  return reach;
}

std::vector<double> TreeReaches(const std::vector<std::vector<KeyRange>>& runs, bool bytewise) {
  for (const std::vector<KeyRange>& ranges : runs) {
    if (!RangesOrderedBytewise(ranges)) bytewise = false;
  }
  return bytewise ? RunReaches(runs) : std::vector<double>(runs.size(), 1.0);
}

bool RangesOrderedBytewise(const std::vector<KeyRange>& ranges) {
  return std::all_of(ranges.begin(), ranges.end(),
                     [](const KeyRange& r) { return r.smallest <= r.largest; });
}

}  // namespace sstfilter

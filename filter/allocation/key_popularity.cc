#include "filter/allocation/key_popularity.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace sstfilter {

namespace {

// Where x lies within this of a whole block's edge, it is on the edge.
constexpr double kOnEdge = 1e-9;

// Groups blocks by density (kDensityStep apart), keeping each group's
// mean.
class DensityGroups {
 public:
  void Add(double blocks, double density) {
    if (blocks <= 0 || density <= 0) return;
    Sum& sum = sums_[static_cast<long>(std::floor(std::log(density) / std::log(kDensityStep)))];
    sum.blocks += blocks;
    sum.requests += blocks * density;
  }
  std::vector<BlockGroup> Groups() const {
    std::vector<BlockGroup> groups;
    for (const auto& [step, sum] : sums_) groups.push_back({sum.blocks, sum.requests / sum.blocks});
    return groups;
  }

 private:
  struct Sum {
    double blocks = 0, requests = 0;
  };
  std::map<long, Sum> sums_;
};

}  // namespace

KeyPopularity::KeyPopularity(const std::vector<Slice>& slices) {
  double width = 0, share = 0;
  for (const Slice& s : slices) {
    if (s.width > 0) width += s.width, share += std::max(s.share, 0.0);
  }
  if (width <= 0 || share <= 0) return;
  double x = 0, below = 0;
  for (const Slice& s : slices) {
    if (s.width <= 0) continue;
    x += s.width / width, below += std::max(s.share, 0.0) / share;
    ends_.push_back(x), cumulative_.push_back(below);
  }
  ends_.back() = 1, cumulative_.back() = 1;
}

double KeyPopularity::ShareBelow(double x) const {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const size_t i = std::upper_bound(ends_.begin(), ends_.end(), x) - ends_.begin();
  const double start = i == 0 ? 0 : ends_[i - 1];
  const double before = i == 0 ? 0 : cumulative_[i - 1];
  return before + (cumulative_[i] - before) * (x - start) / (ends_[i] - start);
}

double KeyPopularity::ShareOf(double from, double to) const {
  if (uniform()) return std::clamp(to, 0.0, 1.0) - std::clamp(from, 0.0, 1.0);
  return std::max(ShareBelow(to) - ShareBelow(from), 0.0);
}

std::vector<BlockGroup> GroupBlocks(const KeyPopularity& popularity, double count) {
  if (count <= 0) return {};
  if (popularity.uniform()) return {{count, 1}};
  const double n = std::max(1.0, std::round(count));
  const double scale = count / n;
  DensityGroups groups;
  // A block with a slice's end strictly inside: its density from its share.
  std::vector<double> straddling;
  for (size_t i = 0; i + 1 < popularity.slices(); ++i) {
    const double at = popularity.end(i) * n;
    if (std::abs(at - std::round(at)) > kOnEdge) straddling.push_back(std::floor(at));
  }
  straddling.erase(std::unique(straddling.begin(), straddling.end()), straddling.end());
  for (double block : straddling) {
    groups.Add(scale, popularity.ShareOf(block / n, (block + 1) / n) * n);
  }
  // The blocks wholly inside a slice: its density.
  double start = 0;
  for (size_t i = 0; i < popularity.slices(); ++i) {
    const double end = popularity.end(i);
    const double first = std::ceil(start * n - kOnEdge), last = std::floor(end * n + kOnEdge);
    if (last > first) groups.Add((last - first) * scale, popularity.ShareOf(start, end) / (end - start));
    start = end;
  }
  return groups.Groups();
}

}  // namespace sstfilter

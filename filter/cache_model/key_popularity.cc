#include "filter/cache_model/key_popularity.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>

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
    density_.push_back(std::max(s.share, 0.0) / share / (s.width / width));
  }
  ends_.back() = 1, cumulative_.back() = 1;
  memo_ = std::make_shared<GroupMemo>();
}

KeyPopularity KeyPopularity::Sharpened(double hot_width) const {
  if (uniform() || !(hot_width > 0 && hot_width < 0.5)) return *this;
  std::vector<Slice> slices;
  double start = 0, below = 0;
  for (size_t i = 0; i < ends_.size(); ++i) {
    const double width = ends_[i] - start, share = cumulative_[i] - below;
    slices.push_back({width * hot_width, share * (1 - hot_width)});
    slices.push_back({width * (1 - hot_width), share * hot_width});
    start = ends_[i], below = cumulative_[i];
  }
  return KeyPopularity(slices);
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

namespace {

// The groups of `n` whole blocks over `popularity`'s slices.
std::vector<BlockGroup> GroupWholeBlocks(const KeyPopularity& popularity, double n) {
  DensityGroups groups;
  // Walk the slices in key order: the blocks wholly inside a slice take
  // its density; a block across edges sums what falls in it.
  double block = 0;    // The block being laid.
  double partial = 0;  // Its share of the key space times density so far.
  double start = 0;
  for (size_t i = 0; i < popularity.slices(); ++i) {
    const double end = popularity.end(i), density = popularity.density(i);
    double x = start;
    while (x < end && block < n) {
      const double block_end = (block + 1) / n;
      if (partial == 0 && std::abs(x - block / n) <= kOnEdge / n) {
        const double whole = std::floor((end - x) * n + kOnEdge);
        if (whole >= 1) {
          groups.Add(whole, density);
          block += whole, x = block / n;
          continue;
        }
      }
      const double to = std::min(block_end, end);
      partial += density * (to - x);
      x = to;
      if (block_end <= end + kOnEdge / n) {
        groups.Add(1, partial * n);
        ++block, partial = 0;
      }
    }
    start = end;
  }
  if (partial > 0 && block < n) groups.Add(1, partial * n);
  return groups.Groups();
}

}  // namespace

struct KeyPopularity::GroupMemo {
  std::mutex mu;
  std::map<double, std::vector<BlockGroup>> by_count;
};

std::vector<BlockGroup> GroupBlocks(const KeyPopularity& popularity, double count) {
  if (count <= 0) return {};
  if (popularity.uniform()) return {{count, 1}};
  const double n = std::max(1.0, std::round(count));
  std::vector<BlockGroup> groups;
  {
    std::lock_guard<std::mutex> lock(popularity.memo_->mu);
    const auto it = popularity.memo_->by_count.find(n);
    if (it != popularity.memo_->by_count.end()) groups = it->second;
  }
  if (groups.empty()) {
    groups = GroupWholeBlocks(popularity, n);
    constexpr size_t kMemoCounts = 4096;
    std::lock_guard<std::mutex> lock(popularity.memo_->mu);
    if (popularity.memo_->by_count.size() >= kMemoCounts) popularity.memo_->by_count.clear();
    popularity.memo_->by_count[n] = groups;
  }
  for (BlockGroup& g : groups) g.count *= count / n;
  return groups;
}

}  // namespace sstfilter

// How a column family's Gets spread over its key space, for the cache
// model (cache_reads.h): under a skewed workload the blocks of hot key
// ranges are requested often and stay cached, so it reads fewer blocks
// than a uniform one at the same cache.
//
// The key space is [0, 1): a key's place is its rank in key order over
// the number of keys. Every sorted run is taken to spread its keys over it
// alike (as random or hashed keys do), so a run's i-th of n equal blocks
// covers [i/n, (i+1)/n) and is requested in proportion to the Gets that
// fall there. The popularity is piecewise uniform: consecutive slices of
// the key space, each with its share of the Gets.
#ifndef SSTFILTER_FILTER_CACHE_MODEL_KEY_POPULARITY_H_
#define SSTFILTER_FILTER_CACHE_MODEL_KEY_POPULARITY_H_

#include <cstddef>
#include <memory>
#include <vector>

namespace sstfilter {

// Blocks alike in how often Gets request them.
struct BlockGroup {
  double count = 0;
  // Each block's requests over the mean block's: its share of the Gets
  // times the blocks.
  double density = 1;
};

// Blocks within this factor of each other's rate share a group.
inline constexpr double kDensityStep = 1.25;

class KeyPopularity;

// `count` equal blocks laid over the key space (count may be fractional:
// an average; it is rounded to whole blocks and the groups scaled back to
// it), grouped by density: blocks within kDensityStep of each other share
// a group, at the group's mean. Blocks no Get requests are left out. The
// groups' count times density sums to `count`. Uniform: one group. One
// pass over the slices, once per whole block count. Thread-safe.
std::vector<BlockGroup> GroupBlocks(const KeyPopularity& popularity, double count);

class KeyPopularity {
 public:
  // One slice, in key order: its width of the key space and its share of
  // the Gets (both relative: the slices are scaled to sum to 1).
  struct Slice {
    double width = 0;
    double share = 0;
  };

  // Uniform.
  KeyPopularity() = default;
  // From `slices` in key order. Slices of no width are dropped; none left,
  // or no share: uniform.
  explicit KeyPopularity(const std::vector<Slice>& slices);

  bool uniform() const { return ends_.empty(); }
  size_t slices() const { return ends_.size(); }
  // The share of the Gets whose keys lie in [from, to), 0 <= from <= to <= 1.
  double ShareOf(double from, double to) const;

  // A place in the key space where a slice ends (the last: 1).
  double end(size_t i) const { return ends_[i]; }
  // A slice's share of the Gets over its width (1: as if uniform).
  double density(size_t i) const { return density_[i]; }

  // The same spread with each slice's Gets gathered toward its start: the
  // first `hot_width` of its width takes 1 - hot_width of its share, the
  // rest the rest (a Pareto split: 0.2 puts 80% of a slice's Gets on 20%
  // of its keys). hot_width in (0, 0.5); 0.5 or more, or uniform: as it is.
  // Where the slices are tables whose sampled reads gave their shares, the
  // hot ranges inside a table (spread_fit.h).
  KeyPopularity Sharpened(double hot_width) const;

 private:
  double ShareBelow(double x) const;

  std::vector<double> ends_;        // Increasing; the last 1.
  std::vector<double> cumulative_;  // The share of Gets below each end.
  std::vector<double> density_;

  friend std::vector<BlockGroup> GroupBlocks(const KeyPopularity& popularity, double count);
  // GroupBlocks' answers by whole block count (shared by copies): a plan
  // asks for the same index and data blocks under every budget it tries.
  struct GroupMemo;
  std::shared_ptr<GroupMemo> memo_;
};

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_CACHE_MODEL_KEY_POPULARITY_H_

// How a read benchmark draws the keys it looks up: uniformly over the keys,
// or skewed over key ranges (hot ranges, as YCSB's zipfian request
// distribution over ranges of consecutive keys): the key space cut into
// `ranges` ranges of consecutive key numbers, range ranks drawn zipfian
// (P(rank r) ~ 1 / (r + 1)^theta), each rank placed at a range of its own
// by a random permutation (so hot ranges are scattered across the key
// space, not side by side), and the key drawn uniformly inside its range.
// A new `hot_seed` moves the hot ranges (a shift of the hot set).
#ifndef SSTFILTER_BENCH_DB_BENCH_KEY_DRAW_H_
#define SSTFILTER_BENCH_DB_BENCH_KEY_DRAW_H_

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace sstfilter::db_bench {

struct LookupTraffic {
  double zipf_theta = 0;  // 0: uniform over the keys.
  int ranges = 1000;
  uint64_t hot_seed = 1;

  bool uniform() const { return zipf_theta <= 0; }
  // "uniform" or "zipf 0.99 over 1000 ranges (hot set 1)".
  std::string Describe() const;
};

// Draws key indexes in [0, count).
class KeyDraw {
 public:
  // REQUIRES: count > 0, traffic.ranges > 0.
  KeyDraw(const LookupTraffic& traffic, int64_t count);

  uint64_t operator()(std::mt19937_64& rng) const;
  // The share of draws that fall in [lo, hi] (key indexes).
  double ShareOf(uint64_t lo, uint64_t hi) const;

 private:
  uint64_t count_;
  std::vector<double> cdf_;            // Of the ranks; empty: uniform.
  std::vector<uint32_t> range_of_rank_;
};

}  // namespace sstfilter::db_bench

#endif  // SSTFILTER_BENCH_DB_BENCH_KEY_DRAW_H_

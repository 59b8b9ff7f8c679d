// How a read benchmark draws the keys it looks up: uniformly over the keys,
// or skewed over key ranges (hot ranges, as YCSB's zipfian request
// distribution over ranges of consecutive keys): the key space cut into
// `ranges` ranges of consecutive key numbers, range ranks drawn zipfian
// (P(rank r) ~ 1 / (r + 1)^theta), each rank placed at a range of its own
// by a random permutation (so hot ranges are scattered across the key
// space, not side by side), and the key drawn uniformly inside its range.
// A new `hot_seed` moves the hot ranges (a shift of the hot set). Or by
// recency: the keys written last read most, the k-th from the end with
// weight exp(-k / recent_scale) (its absent neighbour, for an absent-key
// read).
#ifndef SSTFILTER_BENCH_DB_BENCH_KEY_DRAW_H_
#define SSTFILTER_BENCH_DB_BENCH_KEY_DRAW_H_

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace sstfilter::db_bench {

struct LookupTraffic {
  double zipf_theta = 0;  // 0: uniform over the keys.
  int ranges = 1000;
  uint64_t hot_seed = 1;
  // By recency: `written` holds the key numbers in the order they were
  // written (kept by whoever writes them).
  bool recency = false;
  std::shared_ptr<const std::vector<uint64_t>> written;
  double recent_scale = 16384;

  bool uniform() const { return zipf_theta <= 0 && !recency; }
  // "uniform" or "zipf 0.99 over 1000 ranges (hot set 1)".
  std::string Describe() const;
};

// Draws key indexes in [0, count).
class KeyDraw {
 public:
  // REQUIRES: count > 0, traffic.ranges > 0.
  KeyDraw(const LookupTraffic& traffic, int64_t count);

  uint64_t operator()(std::mt19937_64& rng) const;
  // The share of draws that fall in [lo, hi] (key indexes). Not
  // thread-safe (by recency, it builds its table at the first call).
  double ShareOf(uint64_t lo, uint64_t hi) const;

 private:
  void BuildRecencyTable() const;

  uint64_t count_;
  std::vector<double> cdf_;            // Of the ranks; empty: uniform.
  std::vector<uint32_t> range_of_rank_;
  std::shared_ptr<const std::vector<uint64_t>> written_;  // Recency.
  double recent_scale_ = 1;
  // By recency, for ShareOf: the written keys' numbers in order, and the
  // draws' share up to and including each.
  mutable std::vector<uint64_t> by_number_;
  mutable std::vector<double> cumulative_;
};

}  // namespace sstfilter::db_bench

#endif  // SSTFILTER_BENCH_DB_BENCH_KEY_DRAW_H_

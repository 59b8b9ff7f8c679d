#include "bench/db_bench/key_draw.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "absl/strings/str_format.h"

namespace sstfilter::db_bench {

std::string LookupTraffic::Describe() const {
  if (recency) {
    return absl::StrFormat("by recency (the k-th key from the last written: exp(-k / %g))",
                           recent_scale);
  }
  if (uniform()) return "uniform";
  return absl::StrFormat("zipf %g over %d ranges (hot set %d)", zipf_theta, ranges, hot_seed);
}

KeyDraw::KeyDraw(const LookupTraffic& traffic, int64_t count)
    : count_(static_cast<uint64_t>(count)),
      written_(traffic.written != nullptr && !traffic.written->empty() ? traffic.written
                                                                          : nullptr),
      recent_scale_(std::max(traffic.recent_scale, 1.0)) {
  if (traffic.zipf_theta <= 0) return;
  const auto ranges = static_cast<size_t>(std::min<int64_t>(traffic.ranges, count));
  double total = 0;
  for (size_t r = 0; r < ranges; ++r) {
    total += std::pow(static_cast<double>(r + 1), -traffic.zipf_theta);
    cdf_.push_back(total);
  }
  for (double& c : cdf_) c /= total;
  range_of_rank_.resize(ranges);
  std::iota(range_of_rank_.begin(), range_of_rank_.end(), 0);
  std::shuffle(range_of_rank_.begin(), range_of_rank_.end(), std::mt19937_64(traffic.hot_seed));
}

uint64_t KeyDraw::operator()(std::mt19937_64& rng) const {
  if (written_ != nullptr) {
    const double back = std::exponential_distribution<double>(1 / recent_scale_)(rng);
    const auto k = std::min(static_cast<size_t>(back), written_->size() - 1);
    return std::min((*written_)[written_->size() - 1 - k], count_ - 1);
  }
  if (cdf_.empty()) return std::uniform_int_distribution<uint64_t>(0, count_ - 1)(rng);
  const double u = std::uniform_real_distribution<double>(0, 1)(rng);
  const auto rank =
      static_cast<size_t>(std::lower_bound(cdf_.begin(), cdf_.end(), u) - cdf_.begin());
  const uint64_t range = range_of_rank_[std::min(rank, cdf_.size() - 1)];
  const uint64_t n = cdf_.size();
  const uint64_t lo = range * count_ / n, hi = (range + 1) * count_ / n;
  return std::uniform_int_distribution<uint64_t>(lo, std::max(lo, hi - 1))(rng);
}

void KeyDraw::BuildRecencyTable() const {
  // The k-th key from the end draws exp(-k/s) - exp(-(k+1)/s); the first
  // written also every draw past it (operator() stops there).
  std::vector<std::pair<uint64_t, double>> weights;
  const size_t n = written_->size();
  for (size_t k = 0; k < n; ++k) {
    const double from = std::exp(-static_cast<double>(k) / recent_scale_);
    const double to = k + 1 < n ? std::exp(-static_cast<double>(k + 1) / recent_scale_) : 0;
    weights.emplace_back(std::min((*written_)[n - 1 - k], count_ - 1), from - to);
  }
  std::sort(weights.begin(), weights.end());
  double total = 0;
  for (const auto& [number, weight] : weights) {
    total += weight;
    by_number_.push_back(number);
    cumulative_.push_back(total);
  }
}

double KeyDraw::ShareOf(uint64_t lo, uint64_t hi) const {
  hi = std::min(hi, count_ - 1);
  if (lo > hi) return 0;
  if (written_ != nullptr) {
    if (by_number_.empty()) BuildRecencyTable();
    auto below = [&](uint64_t v) {  // The share of draws under v.
      const auto it = std::lower_bound(by_number_.begin(), by_number_.end(), v);
      return it == by_number_.begin() ? 0.0 : cumulative_[it - by_number_.begin() - 1];
    };
    return below(hi + 1) - below(lo);
  }
  if (cdf_.empty()) return static_cast<double>(hi - lo + 1) / static_cast<double>(count_);
  const uint64_t n = cdf_.size();
  std::vector<double> of_range(n);
  for (size_t rank = 0; rank < n; ++rank) {
    of_range[range_of_rank_[rank]] = cdf_[rank] - (rank == 0 ? 0 : cdf_[rank - 1]);
  }
  double share = 0;
  for (uint64_t range = lo * n / count_; range < n && range * count_ / n <= hi; ++range) {
    const uint64_t a = range * count_ / n, b = (range + 1) * count_ / n;  // [a, b)
    const uint64_t from = std::max(a, lo), to = std::min(b, hi + 1);
    if (to > from && b > a) {
      share += of_range[range] * static_cast<double>(to - from) / static_cast<double>(b - a);
    }
  }
  return share;
}

}  // namespace sstfilter::db_bench

#include "filter/allocation/fp_curve.h"

#include <array>
#include <atomic>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include "filter/allocation/run_allocation.h"

namespace sstfilter {

namespace {

// The nodes from p = 1 to kBitsCurveLeast and one past it (interpolation
// reads node i + 1 for i = floor(-ln p / kBitsCurveStep)).
constexpr double kLnOfLeast = -69.07755278982137;  // ln(kBitsCurveLeast)
constexpr auto kNodes = static_cast<size_t>(-kLnOfLeast / kBitsCurveStep) + 2;

// Curves kept before the cache forgets them all (plans hold theirs on):
// about 9 KiB each.
constexpr size_t kMaxCurves = 512;

class Curve {
 public:
  Curve(EncodingId encoding, size_t keys) : exact_(ExactBitsForFp(encoding, keys)) {
    for (std::atomic<double>& node : nodes_) {
      node.store(std::numeric_limits<double>::quiet_NaN(), std::memory_order_relaxed);
    }
  }

  double operator()(double fp_rate) const {
    if (!(fp_rate >= kBitsCurveLeast && fp_rate <= 1)) return exact_(fp_rate);
    const double x = -std::log(fp_rate) / kBitsCurveStep;
    const double below = std::floor(x);
    const auto i = static_cast<size_t>(below);
    const double t = x - below;
    // At a node (t == 0) the next one is not needed.
    return t == 0 ? Node(i) : (1 - t) * Node(i) + t * Node(i + 1);
  }

 private:
  double Node(size_t i) const {
    std::atomic<double>& node = nodes_[i];
    double bits = node.load(std::memory_order_relaxed);
    if (std::isnan(bits)) {
      bits = exact_(std::exp(-static_cast<double>(i) * kBitsCurveStep));
      node.store(bits, std::memory_order_relaxed);  // Racing threads store the same value.
    }
    return bits;
  }

  std::function<double(double)> exact_;
  mutable std::array<std::atomic<double>, kNodes> nodes_;
};

struct Curves {
  std::mutex mu;
  std::map<std::pair<EncodingId, size_t>, std::shared_ptr<const Curve>> by_class;
};

std::shared_ptr<const Curve> CurveFor(EncodingId encoding, size_t keys) {
  static Curves* curves = new Curves;  // Never destroyed: plans are made until exit.
  const std::pair<EncodingId, size_t> key{encoding, keys};
  std::lock_guard<std::mutex> lock(curves->mu);
  if (const auto it = curves->by_class.find(key); it != curves->by_class.end()) return it->second;
  if (curves->by_class.size() >= kMaxCurves) curves->by_class.clear();
  auto curve = std::make_shared<const Curve>(encoding, keys);
  curves->by_class.emplace(key, curve);
  return curve;
}

}  // namespace

size_t BitsCurveKeys(size_t filter_keys) {
  if (filter_keys < kBitsCurveExactKeys) return filter_keys;
  const double k = std::round(std::log2(static_cast<double>(filter_keys)) * kBitsCurveClassesPerOctave);
  return static_cast<size_t>(std::llround(std::exp2(k / kBitsCurveClassesPerOctave)));
}

std::function<double(double fp_rate)> SampledBitsForFp(EncodingId encoding, size_t filter_keys) {
  std::shared_ptr<const Curve> curve = CurveFor(encoding, BitsCurveKeys(filter_keys));
  return [curve = std::move(curve)](double fp_rate) { return (*curve)(fp_rate); };
}

}  // namespace sstfilter

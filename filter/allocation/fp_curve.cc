#include "filter/allocation/fp_curve.h"

#include <atomic>
#include <cassert>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <utility>
#include <vector>

#include "filter/allocation/run_allocation.h"

namespace sstfilter {

namespace {

constexpr double kLnOfLeast = -69.07755278982137;  // ln(kBitsCurveLeast)

// Curves kept before the cache forgets them all (plans hold theirs on):
// 2-9 KiB each.
constexpr size_t kMaxCurves = 512;

class Curve {
 public:
  Curve(EncodingId encoding, size_t keys, int nodes_per_unit)
      : exact_(ExactBitsForFp(encoding, keys)),
        nodes_per_unit_(nodes_per_unit),
        // From p = 1 to kBitsCurveLeast and one past it (interpolation
        // reads node i + 1 for i = floor(-ln p * nodes_per_unit)).
        nodes_(static_cast<size_t>(-kLnOfLeast * nodes_per_unit) + 2) {
    for (std::atomic<double>& node : nodes_) {
      node.store(std::numeric_limits<double>::quiet_NaN(), std::memory_order_relaxed);
    }
  }

  double operator()(double fp_rate) const {
    if (!(fp_rate >= kBitsCurveLeast && fp_rate <= 1)) return exact_(fp_rate);
    const double x = -std::log(fp_rate) * nodes_per_unit_;
    // At a node (to ln's rounding: ln(e^-y) need not be y) the next one is
    // not needed.
    const double nearest = std::round(x);
    if (std::abs(x - nearest) < 1e-9) return Node(static_cast<size_t>(nearest));
    const double below = std::floor(x);
    const double t = x - below;
    return (1 - t) * Node(static_cast<size_t>(below)) + t * Node(static_cast<size_t>(below) + 1);
  }

 private:
  double Node(size_t i) const {
    std::atomic<double>& node = nodes_[i];
    double bits = node.load(std::memory_order_relaxed);
    if (std::isnan(bits)) {
      bits = exact_(NodeFp(i));
      node.store(bits, std::memory_order_relaxed);  // Racing threads store the same value.
    }
    return bits;
  }

  // Node i's FP, e^(-i / nodes_per_unit); node 0's is 1, which no filter
  // is sized for (BitsPerKeyForFpModel takes FPs below 1): the FP just
  // below it.
  double NodeFp(size_t i) const {
    if (i == 0) return std::nextafter(1.0, 0.0);
    return std::exp(-static_cast<double>(i) / nodes_per_unit_);
  }

  std::function<double(double)> exact_;
  double nodes_per_unit_;
  mutable std::vector<std::atomic<double>> nodes_;
};

struct Curves {
  std::mutex mu;
  std::map<std::tuple<EncodingId, size_t, int>, std::shared_ptr<const Curve>> by_class;
};

std::shared_ptr<const Curve> CurveFor(EncodingId encoding, size_t keys, int nodes_per_unit) {
  static Curves* curves = new Curves;  // Never destroyed: plans are made until exit.
  const std::tuple<EncodingId, size_t, int> key{encoding, keys, nodes_per_unit};
  std::lock_guard<std::mutex> lock(curves->mu);
  if (const auto it = curves->by_class.find(key); it != curves->by_class.end()) return it->second;
  if (curves->by_class.size() >= kMaxCurves) curves->by_class.clear();
  auto curve = std::make_shared<const Curve>(encoding, keys, nodes_per_unit);
  curves->by_class.emplace(key, curve);
  return curve;
}

}  // namespace

size_t BitsCurveKeys(size_t filter_keys) {
  if (filter_keys < kBitsCurveExactKeys) return filter_keys;
  const double k = std::round(std::log2(static_cast<double>(filter_keys)) * kBitsCurveClassesPerOctave);
  return static_cast<size_t>(std::llround(std::exp2(k / kBitsCurveClassesPerOctave)));
}

std::function<double(double fp_rate)> SampledBitsForFp(EncodingId encoding, size_t filter_keys,
                                                       int nodes_per_unit) {
  assert(nodes_per_unit > 0);
  std::shared_ptr<const Curve> curve =
      CurveFor(encoding, BitsCurveKeys(filter_keys), nodes_per_unit);
  return [curve = std::move(curve)](double fp_rate) { return (*curve)(fp_rate); };
}

}  // namespace sstfilter

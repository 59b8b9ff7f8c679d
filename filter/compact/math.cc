#include "filter/compact/math.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "filter/cache_local/math.h"
#include "filter/cache_local/probes.h"

namespace sstfilter {

double CompactTargetFpRate(double bits_per_key) {
  assert(bits_per_key > 0);
  return BlockedBloomFpRate(cache_local::kLineBits / bits_per_key,
                            CacheLocalNumProbes(bits_per_key));
}

CompactFingerprint CompactFingerprintFor(double bits_per_key) {
  const double target = CompactTargetFpRate(bits_per_key);
  CompactFingerprint f;
  f.bits = static_cast<int>(std::ceil(-std::log2(target)));
  f.bits = std::clamp(f.bits, 1, kCompactMaxFingerprintBits);
  f.narrow_fraction = std::clamp(std::ldexp(target, f.bits) - 1, 0.0, 1.0);
  if (f.narrow_fraction >= 1.0) f.narrow_fraction = 0;  // Only when clamped at r = 1.
  return f;
}

double FuseShape::FpRate() const {
  const double narrow = window_starts() == 0 ? 0 : double(narrow_cells) / window_starts();
  return narrow * std::ldexp(1.0, -(fingerprint_bits - 1)) +
         (1 - narrow) * std::ldexp(1.0, -fingerprint_bits);
}

namespace {

// Graf & Lemire's segment length for arity 4 (their floor matters: it was
// tuned for construction time), capped at 2^18.
int LogSegmentLength(size_t n) {
  const double lg = std::floor(std::log(double(n)) / std::log(2.91) - 0.5);
  return std::clamp(static_cast<int>(lg), 0, kCompactMaxLogSegmentLength);
}

// Cells per key that make construction succeed with high probability.
double SizeFactor(size_t n) {
  return std::max(1.075, 0.77 + 0.305 * std::log(600000.0) / std::log(double(n)));
}

}  // namespace

FuseShape CompactFuseShape(size_t num_keys, double bits_per_key) {
  assert(num_keys >= kCompactMinFuseKeys && num_keys <= kCompactMaxFuseKeys);
  const CompactFingerprint f = CompactFingerprintFor(bits_per_key);
  FuseShape shape;
  shape.fingerprint_bits = f.bits;
  shape.log_segment_length = LogSegmentLength(num_keys);
  const uint64_t capacity = std::llround(double(num_keys) * SizeFactor(num_keys));
  const uint64_t segments = (capacity + shape.segment_length() - 1) >> shape.log_segment_length;
  shape.segment_count =
      static_cast<uint32_t>(std::max<uint64_t>(1, segments > kCompactArity - 1
                                                      ? segments - (kCompactArity - 1)
                                                      : 1));
  shape.narrow_cells =
      static_cast<uint32_t>(std::llround(f.narrow_fraction * double(shape.window_starts())));
  // The bits of the array's last byte that the narrow cells leave free go
  // to widening as many of them.
  return *FitFingerprints(shape, shape.array_bytes() * 8);
}

std::optional<FuseShape> FitFingerprints(const FuseShape& cells, uint64_t max_array_bits) {
  const uint64_t c = cells.num_cells(), w = cells.window_starts();
  const uint64_t whole = max_array_bits / c;  // Widest r whose every cell fits.
  FuseShape fit = cells;
  // r = whole + 1 with some narrow cells spends exactly max_array_bits...
  if (whole + 1 <= uint64_t{kCompactMaxFingerprintBits} && (whole + 1) * c - max_array_bits <= w) {
    fit.fingerprint_bits = static_cast<int>(whole + 1);
    fit.narrow_cells = static_cast<uint32_t>((whole + 1) * c - max_array_bits);
    return fit;
  }
  // ...else whole r-bit cells spend the most (more cells narrow would not fit).
  if (whole == 0) return std::nullopt;
  fit.fingerprint_bits = static_cast<int>(std::min<uint64_t>(whole, kCompactMaxFingerprintBits));
  fit.narrow_cells = 0;
  return fit;
}

}  // namespace sstfilter

// Cheap per-query randomness for the micro benchmarks: which filter, which
// key. Its cost is the same for every implementation timed.
#ifndef SSTFILTER_BENCH_BENCH_RNG_H_
#define SSTFILTER_BENCH_BENCH_RNG_H_

#include <cstddef>
#include <cstdint>

#include "bench/key_shapes.h"

namespace sstfilter::bench {

class BenchRng {
 public:
  uint64_t Next() { return Mix64(state_++); }
  // Uniform in [0, n) without a division (Lemire's multiply-shift).
  size_t Below(size_t n) { return BelowFrom(Next(), n); }
  // The same from a value already drawn.
  static size_t BelowFrom(uint64_t r, size_t n) {
    return static_cast<size_t>((static_cast<unsigned __int128>(r) * n) >> 64);
  }

 private:
  uint64_t state_ = 1;
};

}  // namespace sstfilter::bench

#endif  // SSTFILTER_BENCH_BENCH_RNG_H_

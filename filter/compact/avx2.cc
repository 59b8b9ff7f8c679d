// AVX2 query kernel of the compact encoding (see compact/kernels.h): the
// AVX-512 kernel's cell arithmetic four keys per register. AVX2 lacks
// 64-bit min and unsigned compares, but cells, narrow_cells and window starts
// are below 2^32, so 32-bit min (on zero high halves) and signed 64-bit
// compares give the same results.
#include "filter/compact/kernels.h"

#include <algorithm>
#include <cstring>

#include "filter/compact/located_group.h"
#include "filter/x86_simd_target.h"

#ifdef SSTFILTER_X86_SIMD_TARGETS

namespace sstfilter {
namespace {

namespace cp = compact;
constexpr size_t kAvx2Lanes = 4;

// The folded product hi ^ lo of h * k (CellsOf's `folded`), and lo.
SSTFILTER_AVX2 inline __m256i FoldedProduct(__m256i h, __m256i k, __m256i* lo) {
  const __m256i low32 = _mm256_set1_epi64x(0xffffffff);
  const __m256i h_hi = _mm256_srli_epi64(h, 32);
  const __m256i k_hi = _mm256_srli_epi64(k, 32);
  const __m256i ll = _mm256_mul_epu32(h, k);
  const __m256i lh = _mm256_mul_epu32(h, k_hi);
  const __m256i hl = _mm256_mul_epu32(h_hi, k);
  const __m256i hh = _mm256_mul_epu32(h_hi, k_hi);
  // Bits 32..65 of the product: at most 3 * (2^32 - 1).
  const __m256i mid = _mm256_add_epi64(_mm256_add_epi64(_mm256_srli_epi64(ll, 32),
                                                        _mm256_and_si256(lh, low32)),
                                       _mm256_and_si256(hl, low32));
  const __m256i hi = _mm256_add_epi64(
      _mm256_add_epi64(hh, _mm256_srli_epi64(lh, 32)),
      _mm256_add_epi64(_mm256_srli_epi64(hl, 32), _mm256_srli_epi64(mid, 32)));
  *lo = _mm256_or_si256(_mm256_slli_epi64(mid, 32), _mm256_and_si256(ll, low32));
  return _mm256_xor_si256(hi, *lo);
}

// Cell bit offsets i * r - min(i, narrow_cells) (CellBitOffset).
SSTFILTER_AVX2 inline __m256i BitOffset(__m256i cell, __m256i bits, __m256i narrow) {
  return _mm256_sub_epi64(_mm256_mul_epu32(cell, bits), _mm256_min_epu32(cell, narrow));
}

// Locates keys [first, first + lanes) of the group, lanes <= 4.
SSTFILTER_AVX2 inline void Locate4(const uint64_t* hashes, size_t lanes, uint64_t multiplier,
                                   const cp::FuseParams& p, size_t first, cp::LocatedGroup* out) {
  // Lanes past `lanes` hash to 0: they map to valid cells and are not read.
  uint64_t padded[kAvx2Lanes] = {};
  std::memcpy(padded, hashes, lanes * sizeof(uint64_t));
  const __m256i h = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(padded));
  __m256i lo;
  const __m256i folded = FoldedProduct(
      h, _mm256_set1_epi64x(static_cast<long long>(multiplier)), &lo);
  const __m256i p0 = _mm256_srli_epi64(
      _mm256_mul_epu32(_mm256_srli_epi64(folded, 32), _mm256_set1_epi64x(p.window_starts)), 32);
  const __m256i length = _mm256_set1_epi64x(p.segment_length);
  const __m256i in_segment = _mm256_set1_epi64x(p.segment_mask);
  const __m256i cells[kCompactArity] = {
      p0,
      _mm256_xor_si256(_mm256_add_epi64(p0, length), _mm256_and_si256(folded, in_segment)),
      _mm256_xor_si256(_mm256_add_epi64(p0, _mm256_slli_epi64(length, 1)),
                       _mm256_and_si256(_mm256_srli_epi64(lo, 46), in_segment)),
      _mm256_xor_si256(
          _mm256_add_epi64(p0, _mm256_set1_epi64x(3 * static_cast<long long>(p.segment_length))),
          _mm256_and_si256(_mm256_srli_epi64(h, 46), in_segment))};
  const __m256i bits = _mm256_set1_epi64x(p.bits);
  const __m256i narrow = _mm256_set1_epi64x(p.narrow_cells);
  for (int j = 0; j < kCompactArity; ++j) {
    _mm256_store_si256(reinterpret_cast<__m256i*>(out->bit[j] + first),
                       BitOffset(cells[j], bits, narrow));
  }
  // KeyMask: r - 1 bits when p0 < narrow_cells, else r.
  _mm256_store_si256(
      reinterpret_cast<__m256i*>(out->mask + first),
      _mm256_blendv_epi8(_mm256_set1_epi64x(static_cast<long long>(p.wide_mask)),
                         _mm256_set1_epi64x(static_cast<long long>(p.narrow_mask)),
                         _mm256_cmpgt_epi64(narrow, p0)));
}

SSTFILTER_AVX2 void QueryAvx2(const uint64_t* hashes, size_t n, const char* array,
                              uint64_t multiplier, const cp::FuseParams& p, bool* out) {
  cp::LocatedGroup at;
  for (size_t first = 0; first < n; first += kAvx2Lanes) {
    const size_t lanes = std::min(kAvx2Lanes, n - first);
    Locate4(hashes + first, lanes, multiplier, p, first, &at);
    cp::PrefetchLocated(array, at, first, first + lanes);
  }
  cp::ProbeLocated(array, hashes, n, at, out);
}

}  // namespace

CompactQueryKernel compact_internal::Avx2QueryKernel() { return QueryAvx2; }

}  // namespace sstfilter

#else  // Not x86-64 with GCC/Clang: no AVX2 kernel.

namespace sstfilter {
CompactQueryKernel compact_internal::Avx2QueryKernel() { return nullptr; }
}  // namespace sstfilter

#endif

// AVX-512 query kernel of the compact encoding (see compact/kernels.h).
//
// Eight keys per register: the 128-bit product h * K_seed from four 32x32
// multiplies (AVX-512 has no 64x64 high half), the window start and the four
// cells' bit offsets, all as CellsOf and ProbeOf compute them one key at a
// time. Offsets and masks go to the stack; scalar code prefetches and probes
// (compact/located_group.h).
// Only AVX-512F instructions are used.
#include "filter/compact/kernels.h"

#include <algorithm>

#include "filter/compact/located_group.h"
#include "filter/x86_simd_target.h"

#ifdef SSTFILTER_X86_SIMD_TARGETS

namespace sstfilter {
namespace {

namespace cp = compact;
constexpr size_t kAvx512Lanes = 8;

// The folded product hi ^ lo of h * k (CellsOf's `folded`), and lo.
SSTFILTER_AVX512 inline __m512i FoldedProduct(__m512i h, __m512i k, __m512i* lo) {
  const __m512i low32 = _mm512_set1_epi64(0xffffffff);
  const __m512i h_hi = _mm512_srli_epi64(h, 32);
  const __m512i k_hi = _mm512_srli_epi64(k, 32);
  const __m512i ll = _mm512_mul_epu32(h, k);
  const __m512i lh = _mm512_mul_epu32(h, k_hi);
  const __m512i hl = _mm512_mul_epu32(h_hi, k);
  const __m512i hh = _mm512_mul_epu32(h_hi, k_hi);
  // Bits 32..65 of the product: at most 3 * (2^32 - 1).
  const __m512i mid = _mm512_add_epi64(_mm512_add_epi64(_mm512_srli_epi64(ll, 32),
                                                        _mm512_and_si512(lh, low32)),
                                       _mm512_and_si512(hl, low32));
  const __m512i hi = _mm512_add_epi64(
      _mm512_add_epi64(hh, _mm512_srli_epi64(lh, 32)),
      _mm512_add_epi64(_mm512_srli_epi64(hl, 32), _mm512_srli_epi64(mid, 32)));
  *lo = _mm512_or_si512(_mm512_slli_epi64(mid, 32), _mm512_and_si512(ll, low32));
  return _mm512_xor_si512(hi, *lo);
}

// Cell bit offsets i * r - min(i, narrow_cells) (CellBitOffset); i < 2^32.
SSTFILTER_AVX512 inline __m512i BitOffset(__m512i cell, __m512i bits, __m512i narrow) {
  return _mm512_sub_epi64(_mm512_mul_epu32(cell, bits), _mm512_min_epu64(cell, narrow));
}

// Locates keys [first, first + lanes) of the group, lanes <= 8.
SSTFILTER_AVX512 inline void Locate8(const uint64_t* hashes, size_t lanes, uint64_t multiplier,
                                     const cp::FuseParams& p, size_t first, cp::LocatedGroup* out) {
  // Lanes past `lanes` hash to 0: they map to valid cells and are not read.
  const __m512i h = _mm512_maskz_loadu_epi64(static_cast<__mmask8>((1u << lanes) - 1), hashes);
  __m512i lo;
  const __m512i folded =
      FoldedProduct(h, _mm512_set1_epi64(static_cast<long long>(multiplier)), &lo);
  const __m512i p0 = _mm512_srli_epi64(
      _mm512_mul_epu32(_mm512_srli_epi64(folded, 32), _mm512_set1_epi64(p.window_starts)), 32);
  const __m512i length = _mm512_set1_epi64(p.segment_length);
  const __m512i in_segment = _mm512_set1_epi64(p.segment_mask);
  const __m512i cells[kCompactArity] = {
      p0,
      _mm512_xor_si512(_mm512_add_epi64(p0, length), _mm512_and_si512(folded, in_segment)),
      _mm512_xor_si512(_mm512_add_epi64(p0, _mm512_slli_epi64(length, 1)),
                       _mm512_and_si512(_mm512_srli_epi64(lo, 46), in_segment)),
      _mm512_xor_si512(_mm512_add_epi64(p0, _mm512_set1_epi64(3 * uint64_t{p.segment_length})),
                       _mm512_and_si512(_mm512_srli_epi64(h, 46), in_segment))};
  const __m512i bits = _mm512_set1_epi64(p.bits);
  const __m512i narrow = _mm512_set1_epi64(p.narrow_cells);
  for (int j = 0; j < kCompactArity; ++j) {
    _mm512_store_si512(out->bit[j] + first, BitOffset(cells[j], bits, narrow));
  }
  // KeyMask: r - 1 bits when p0 < narrow_cells, else r.
  _mm512_store_si512(out->mask + first,
                     _mm512_mask_blend_epi64(_mm512_cmplt_epu64_mask(p0, narrow),
                                             _mm512_set1_epi64(static_cast<long long>(p.wide_mask)),
                                             _mm512_set1_epi64(static_cast<long long>(p.narrow_mask))));
}

SSTFILTER_AVX512 void QueryAvx512(const uint64_t* hashes, size_t n, const char* array,
                                  uint64_t multiplier, const cp::FuseParams& p, bool* out) {
  cp::LocatedGroup at;
  for (size_t first = 0; first < n; first += kAvx512Lanes) {
    const size_t lanes = std::min(kAvx512Lanes, n - first);
    Locate8(hashes + first, lanes, multiplier, p, first, &at);
    cp::PrefetchLocated(array, at, first, first + lanes);
  }
  cp::ProbeLocated(array, hashes, n, at, out);
}

}  // namespace

CompactQueryKernel compact_internal::Avx512QueryKernel() { return QueryAvx512; }

}  // namespace sstfilter

#else  // Not x86-64 with GCC/Clang: no AVX-512 kernel.

namespace sstfilter {
CompactQueryKernel compact_internal::Avx512QueryKernel() { return nullptr; }
}  // namespace sstfilter

#endif

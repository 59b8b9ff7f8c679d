// AVX-512 probe kernel of the banded encoding (see banded/kernels.h): a
// band's columns (r <= 8) as the lanes of one register. Both blocks' words
// come in by masked loads (lanes past the key's columns, and block b + 1
// when the band does not reach it, are not read: masked-off lanes do not
// fault), ANDed with the coefficients' two halves, XORed, counted by
// VPOPCNTQ; the lanes of odd count are the parities, compared with the
// fingerprint at once. Wider filters (r > 8, past ~14 bits/key) take the
// scalar loop.
#include "filter/banded/kernels.h"
#include "filter/banded/query.h"
#include "filter/x86_simd_target.h"

#ifdef SSTFILTER_X86_SIMD_TARGETS

#define SSTFILTER_AVX512_VPOPCNTQ __attribute__((target("avx512f,avx512vpopcntdq")))

namespace sstfilter {
namespace {

namespace bd = banded;

SSTFILTER_AVX512_VPOPCNTQ inline bd::LayerAnswer ProbeOne(const bd::LocatedBand& l) {
  if (bd::IsBumped(l)) return bd::LayerAnswer::kBumped;
  const auto lanes = static_cast<__mmask8>((1u << l.columns) - 1);
  const __m512i first = _mm512_maskz_loadu_epi64(lanes, l.first);
  const __m512i second =
      _mm512_maskz_loadu_epi64(l.in_second == 0 ? __mmask8{0} : lanes, l.second);
  const __m512i x = _mm512_xor_si512(
      _mm512_and_si512(first, _mm512_set1_epi64(static_cast<long long>(l.in_first))),
      _mm512_and_si512(second, _mm512_set1_epi64(static_cast<long long>(l.in_second))));
  const __mmask8 odd = _mm512_test_epi64_mask(_mm512_popcnt_epi64(x), _mm512_set1_epi64(1));
  return odd == l.fingerprint ? bd::LayerAnswer::kMatch : bd::LayerAnswer::kNoMatch;
}

SSTFILTER_AVX512_VPOPCNTQ inline bd::LayerAnswer Probe(const bd::LocatedBand& l) {
  return l.columns <= 8 ? ProbeOne(l) : bd::ProbeLocated(l);
}

SSTFILTER_AVX512_VPOPCNTQ bool MayMatchAvx512(const bd::Layers& layers, uint64_t hash) {
  return bd::QueryHash(layers, hash, Probe);
}

SSTFILTER_AVX512_VPOPCNTQ void MayMatchHashesAvx512(const bd::Layers& layers, const uint64_t* hashes, size_t n,
                                 bool* out) {
  bd::QueryHashes(layers, hashes, n, out, Probe);
}

}  // namespace

BandedKernels banded_internal::Avx512Kernels() {
  return {MayMatchAvx512, MayMatchHashesAvx512, "avx512-vpopcntq"};
}

}  // namespace sstfilter

#else  // Not x86-64 with GCC/Clang: no AVX-512 kernel.

namespace sstfilter {
BandedKernels banded_internal::Avx512Kernels() { return {}; }
}  // namespace sstfilter

#endif

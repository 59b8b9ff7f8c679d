// AVX2 probe kernel of the banded encoding (see banded/kernels.h): a
// band's columns (r <= 8) in two registers of four lanes. Masked loads
// (VPMASKMOVQ: masked-off lanes are not read and do not fault) bring both
// blocks' words, ANDed with the coefficients' two halves and XORed; each
// lane's parity is folded to a nibble (shifts by 32, 16, 8, 4 and XORs)
// and looked up in a 16-entry table (VPSHUFB), and its bit moved to the
// sign for VMOVMSKPD. Wider filters (r > 8) take the scalar loop.
#include "filter/banded/kernels.h"
#include "filter/banded/query.h"
#include "filter/x86_simd_target.h"

#ifdef SSTFILTER_X86_SIMD_TARGETS

namespace sstfilter {
namespace {

namespace bd = banded;

// Bit 0 of each 64-bit lane of x: the parity of the lane.
SSTFILTER_AVX2 inline int OddLanes(__m256i x) {
  x = _mm256_xor_si256(x, _mm256_srli_epi64(x, 32));
  x = _mm256_xor_si256(x, _mm256_srli_epi64(x, 16));
  x = _mm256_xor_si256(x, _mm256_srli_epi64(x, 8));
  x = _mm256_xor_si256(x, _mm256_srli_epi64(x, 4));
  // Parity of each nibble value 0..15 (0x6996 bit by bit), as bytes.
  const __m256i table = _mm256_setr_epi8(0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0,  //
                                         0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0);
  const __m256i parity =
      _mm256_shuffle_epi8(table, _mm256_and_si256(x, _mm256_set1_epi8(0x0f)));
  return _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_slli_epi64(parity, 63)));
}

// Lanes i of `from` with from <= i < columns: all ones.
SSTFILTER_AVX2 inline __m256i LaneMask(uint32_t columns, int from) {
  const __m256i index = _mm256_setr_epi64x(from, from + 1, from + 2, from + 3);
  return _mm256_cmpgt_epi64(_mm256_set1_epi64x(columns), index);
}

SSTFILTER_AVX2 inline int OddColumns(const bd::LocatedBand& l, int from, __m256i in_first,
                                     __m256i in_second) {
  const __m256i lanes = LaneMask(l.columns, from);
  const __m256i second_lanes = l.in_second == 0 ? _mm256_setzero_si256() : lanes;
  const auto* first = reinterpret_cast<const long long*>(l.first) + from;
  const auto* second = reinterpret_cast<const long long*>(l.second) + from;
  const __m256i x =
      _mm256_xor_si256(_mm256_and_si256(_mm256_maskload_epi64(first, lanes), in_first),
                       _mm256_and_si256(_mm256_maskload_epi64(second, second_lanes), in_second));
  return OddLanes(x);
}

SSTFILTER_AVX2 inline bd::LayerAnswer ProbeOne(const bd::LocatedBand& l) {
  if (bd::IsBumped(l)) return bd::LayerAnswer::kBumped;
  const __m256i in_first = _mm256_set1_epi64x(static_cast<long long>(l.in_first));
  const __m256i in_second = _mm256_set1_epi64x(static_cast<long long>(l.in_second));
  uint32_t odd = static_cast<uint32_t>(OddColumns(l, 0, in_first, in_second));
  if (l.columns > 4) odd |= static_cast<uint32_t>(OddColumns(l, 4, in_first, in_second)) << 4;
  return odd == l.fingerprint ? bd::LayerAnswer::kMatch : bd::LayerAnswer::kNoMatch;
}

SSTFILTER_AVX2 inline bd::LayerAnswer Probe(const bd::LocatedBand& l) {
  return l.columns <= 8 ? ProbeOne(l) : bd::ProbeLocated(l);
}

SSTFILTER_AVX2 bool MayMatchAvx2(const bd::Layers& layers, uint64_t hash) {
  return bd::QueryHash(layers, hash, Probe);
}

SSTFILTER_AVX2 void MayMatchHashesAvx2(const bd::Layers& layers, const uint64_t* hashes, size_t n,
                                 bool* out) {
  bd::QueryHashes(layers, hashes, n, out, Probe);
}

}  // namespace

BandedKernels banded_internal::Avx2Kernels() {
  return {MayMatchAvx2, MayMatchHashesAvx2, "avx2"};
}

}  // namespace sstfilter

#else  // Not x86-64 with GCC/Clang: no AVX2 kernel.

namespace sstfilter {
BandedKernels banded_internal::Avx2Kernels() { return {}; }
}  // namespace sstfilter

#endif

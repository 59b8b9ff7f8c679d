// AVX2 probe kernel of the banded encoding (see banded/kernels.h): a
// band's columns (r <= 8) in two registers of four lanes. Masked loads
// (VPMASKMOVQ: masked-off lanes are not read and do not fault) bring both
// blocks' words, ANDed with the coefficients' two halves and XORed; the
// two registers' parities are then folded together (OddColumns). Wider
// filters (r > 8) take the scalar loop.
#include "filter/banded/kernels.h"

#include <cstdint>

#include "filter/banded/query.h"
#include "filter/x86_simd_target.h"

#ifdef SSTFILTER_X86_SIMD_TARGETS

namespace sstfilter {
namespace {

namespace bd = banded;

// Row c holds all-ones in the 64-bit lanes of columns [0, c), c in [0, 8]:
// the load masks of a band of c columns, columns 0..3 then 4..7.
struct alignas(64) ColumnMasks {
  int64_t lanes[9][8];
};
constexpr ColumnMasks MakeColumnMasks() {
  ColumnMasks m{};
  for (int c = 0; c <= 8; ++c) {
    for (int i = 0; i < 8; ++i) m.lanes[c][i] = i < c ? -1 : 0;
  }
  return m;
}
constexpr ColumnMasks kColumnMasks = MakeColumnMasks();

// Columns from..from + 3 of the band (masked-off lanes read as 0): each
// lane the AND of its two blocks' words with the coefficients, XORed.
SSTFILTER_AVX2 inline __m256i Columns(const bd::LocatedBand& l, int from, __m256i in_first,
                                      __m256i in_second) {
  const __m256i lanes = _mm256_load_si256(
      reinterpret_cast<const __m256i*>(kColumnMasks.lanes[l.columns] + from));
  const __m256i second_lanes = l.in_second == 0 ? _mm256_setzero_si256() : lanes;
  const auto* first = reinterpret_cast<const long long*>(l.first) + from;
  const auto* second = reinterpret_cast<const long long*>(l.second) + from;
  return _mm256_xor_si256(_mm256_and_si256(_mm256_maskload_epi64(first, lanes), in_first),
                          _mm256_and_si256(_mm256_maskload_epi64(second, second_lanes), in_second));
}

// Bit c of the result: the parity of column c of the 8 the two registers
// hold (low: columns 0..3, high: 4..7, one per 64-bit lane). Both are
// folded to 32 bits, interleaved into the 8 dwords of one register (so the
// rest of the fold runs once), folded to a nibble, looked up in a 16-entry
// table (VPSHUFB), put back in column order (VPERMD) and gathered by
// VMOVMSKPS.
SSTFILTER_AVX2 inline uint32_t OddColumns(__m256i low, __m256i high) {
  low = _mm256_xor_si256(low, _mm256_srli_epi64(low, 32));
  high = _mm256_xor_si256(high, _mm256_slli_epi64(high, 32));
  // Dwords: column 0, 4, 1, 5, 2, 6, 3, 7.
  __m256i x = _mm256_blend_epi32(low, high, 0xaa);
  x = _mm256_xor_si256(x, _mm256_srli_epi32(x, 16));
  x = _mm256_xor_si256(x, _mm256_srli_epi32(x, 8));
  x = _mm256_xor_si256(x, _mm256_srli_epi32(x, 4));
  // Parity of each nibble value 0..15 (0x6996 bit by bit), as bytes.
  const __m256i table = _mm256_setr_epi8(0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0,  //
                                         0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0);
  const __m256i parity =
      _mm256_shuffle_epi8(table, _mm256_and_si256(x, _mm256_set1_epi8(0x0f)));
  const __m256i in_order =
      _mm256_permutevar8x32_epi32(parity, _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7));
  return static_cast<uint32_t>(
      _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_slli_epi32(in_order, 31))));
}

SSTFILTER_AVX2 inline bd::LayerAnswer ProbeOne(const bd::LocatedBand& l) {
  if (bd::IsBumped(l)) return bd::LayerAnswer::kBumped;
  const __m256i in_first = _mm256_set1_epi64x(static_cast<long long>(l.in_first));
  const __m256i in_second = _mm256_set1_epi64x(static_cast<long long>(l.in_second));
  // Columns 4..7 only when the band has them: their address may lie past the filter.
  const __m256i high =
      l.columns > 4 ? Columns(l, 4, in_first, in_second) : _mm256_setzero_si256();
  const uint32_t odd = OddColumns(Columns(l, 0, in_first, in_second), high);
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

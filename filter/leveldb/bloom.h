// The LevelDB-compatible Bloom encoding: builder and reader.
//
// Format: ceil(max(n * bits_per_key, 64) / 8) bytes of bit array, then one
// byte holding k. Keys are hashed with LevelDbBloomHash and probed as in
// leveldb/probes.h. For integral bits_per_key and distinct keys the bytes
// equal those of LevelDB's NewBloomFilterPolicy(bits_per_key)->CreateFilter.
//
// Reader contract (fail open, never a false negative):
//   - fewer than 2 bytes: matches nothing (LevelDB's "empty filter");
//   - k byte > 30: reserved for other encodings, matches everything;
//   - k byte 0 (never written): a filter with no probes matches everything.
#ifndef SSTFILTER_FILTER_LEVELDB_BLOOM_H_
#define SSTFILTER_FILTER_LEVELDB_BLOOM_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/types/span.h"
#include "filter/encoding_info.h"
#include "filter/builder_base.h"
#include "filter/leveldb/fast_mod.h"
#include "filter/leveldb/hash.h"
#include "filter/leveldb/kernels.h"
#include "filter/leveldb/probes.h"
#include "filter/reader_base.h"
#include "filter/simd_level.h"

namespace sstfilter {

// The name of LevelDB's built-in Bloom filter policy, whose filter bytes this
// encoding writes (LevelDB stores a table's filter under "filter." + name).
inline constexpr char kLevelDbBuiltinPolicyName[] = "leveldb.BuiltinBloomFilter2";

// Collects key hashes, then writes one filter. Call order:
//   (AddKey | AddHash)* Finish
// Finish leaves the builder empty, ready for the next filter.
class LevelDbBloomBuilder : public BuilderBase<LevelDbBloomBuilder> {
 public:
  // REQUIRES: 0 < bits_per_key <= kMaxBitsPerKey.
  explicit LevelDbBloomBuilder(double bits_per_key);
  // The next filter is written at bits_per_key; entries added are kept.
  void Retune(double bits_per_key);

  using Hash = uint32_t;
  static Hash HashKey(std::string_view key);

  void AddKey(std::string_view key) { AddHash(HashKey(key)); }
  void AddHash(Hash h) { hashes_.push_back(h); }
  size_t NumEntries() const { return hashes_.size(); }
  // The hashes added since the last Finish, in order.
  const std::vector<Hash>& hashes() const { return hashes_; }
  // Calls visit(hash) for each of them (the interface all our builders share,
  // used for post-verification).
  template <typename Visit>
  void ForEachHash(Visit&& visit) const {
    for (Hash h : hashes_) visit(h);
  }

  using BuilderBase::FinishInto;  // FinishInto(out): the FinishSize() bytes.
  // The same filter at another size: bytes - 1 bytes of bit array, k as
  // configured (the format stores k and probes the whole array, so any
  // length is a LevelDB filter). REQUIRES: bytes == FilterSize(NumEntries())
  // or FittingFilterSize(NumEntries(), b) for some b, and not 0.
  void FinishInto(char* out, size_t bytes);

  // Bytes Finish appends for n entries.
  size_t FilterSize(size_t num_entries) const;
  // Largest size <= bytes FinishInto(out, size) writes for n entries, 0 if
  // none: any size from FilterSize(0) (the 64-bit minimum array) on.
  size_t FittingFilterSize(size_t num_entries, size_t bytes) const;
  // The FP model of the filter written at a size FittingBuiltSize gave.
  double BuiltFpRate(size_t bytes) const;
  // Largest n with FilterSize(n) <= bytes (0 if there is none), at most
  // kMaxFilterEntries: the exact inverse RocksDB's partitioned filters size
  // their partitions with.
  size_t MaxEntriesForSize(size_t bytes) const;

 private:
  std::vector<uint32_t> hashes_;
};

// One-shot form of the builder, shaped like LevelDB's CreateFilter.
void AppendLevelDbBloomFilter(absl::Span<const std::string_view> keys,
                              double bits_per_key, std::string* dst);

// What a LevelDB filter's probes need: k over the bits before the k byte.
struct LevelDbFilterLayout {
  const char* array = nullptr;
  int k = 0;
  uint64_t num_bits = 0;
};

// The format's one parse (the reader contract above): under 2 bytes the
// empty filter; k, the final byte, of 1..30 probed over the bytes before it;
// k = 0 (never written) may match. Callers recognise the encoding first
// (LevelDbBloomReader::Recognises): a final byte above 30 is another's.
inline ParsedFilter<LevelDbFilterLayout> ParseLevelDbFilter(std::string_view filter) {
  if (filter.size() < 2) return {FilterState::kMatchNothing, {}};
  const int k = static_cast<unsigned char>(filter.back());
  if (k == 0 || k > kLevelDbMaxProbes) return {};
  return {FilterState::kProbe, {filter.data(), k, uint64_t{filter.size() - 1} * 8}};
}

// Queries one filter. Parses the trailer once; the filter bytes must outlive
// the reader. Safe to use from several threads at once.
class LevelDbBloomReader : public ReaderBase {
 public:
  explicit LevelDbBloomReader(std::string_view filter);

  // Whether filter is of this encoding: it ends in k (1..30), or in 0
  // (damaged: read as may-match), or is the empty filter (under 2 bytes).
  static bool Recognises(std::string_view filter) {
    return filter.size() < 2 || static_cast<unsigned char>(filter.back()) <= kLevelDbMaxProbes;
  }

  // One query of a filter's bytes with no reader built (OneShotQuery,
  // filter_policy.h): MayMatch's answer. Positions by the division
  // instruction (DividingMod32), not FastMod32, whose setup one query does
  // not repay. Nothing is resolved ahead: OnceContext is empty.
  struct OnceContext {
    OnceContext() = default;
    explicit OnceContext(SimdLevel /*simd*/) {}
  };
  static bool MayMatchOnce(std::string_view filter, std::string_view key,
                           const OnceContext& /*context*/ = {}) {
    return ParseLevelDbFilter(filter).Answer([key](const LevelDbFilterLayout& l) {
      return leveldb_probes::ForEachProbe(
          LevelDbBloomHash(key), l.k, leveldb_probes::DividingMod32{l.num_bits},
          [array = l.array](uint32_t pos) { return leveldb_probes::TestBit(array, pos); });
    });
  }

  bool MayMatch(std::string_view key) const;
  bool HashMayMatch(uint32_t h) const;

  // Answers as MayMatch does, for every key; out must hold keys.size()
  // entries. Hashes and prefetches a batch before probing, which hides
  // cache misses when the filter is not in cache.
  void MayMatchBatch(absl::Span<const std::string_view> keys, bool* out) const {
    MayMatchEach(keys.size(), [keys](size_t i) { return keys[i]; }, out);
  }
  // The same for the n keys key_at(0..n-1) (string_view key_at(size_t)),
  // read where the caller holds them (RocksDB's MultiGet).
  template <typename KeyAt>
  void MayMatchEach(size_t n, KeyAt key_at, bool* out) const;

  // Bits of the array (0 unless kProbe).
  uint64_t num_bits() const { return num_bits_; }

 private:
  uint64_t num_bits_ = 0;
  FastMod32 bit_divisor_{1};  // Positions are taken modulo num_bits_.
  const LevelDbKernels* kernels_ = nullptr;  // For num_probes_; set when kProbe.
};

template <typename KeyAt>
void LevelDbBloomReader::MayMatchEach(size_t n, KeyAt key_at, bool* out) const {
  if (!Probes()) return FillFixedAnswer(n, out);
  constexpr size_t kChunk = 32;  // A MultiGet batch.
  uint32_t hashes[kChunk];
  for (size_t base = 0; base < n; base += kChunk) {
    const size_t chunk = std::min(kChunk, n - base);
    for (size_t i = 0; i < chunk; ++i) hashes[i] = LevelDbBloomHash(key_at(base + i));
    kernels_->test_batch(hashes, chunk, bit_divisor_, array_, out + base);
  }
}

// One-shot form, shaped like LevelDB's KeyMayMatch.
bool LevelDbBloomMayMatch(std::string_view filter, std::string_view key);

// Defined in leveldb/encoding.cc.
extern const EncodingInfo kLevelDbEncodingInfo;
using LevelDbEncoding = Encoding<LevelDbBloomBuilder, LevelDbBloomReader, kLevelDbEncodingInfo,
                                 EncodingId::kLevelDb>;

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_LEVELDB_BLOOM_H_

// The cache-local Bloom encoding: builder and reader.
//
// Format, for n keys at bits_per_key:
//   num_lines * line_bytes bit array, num_lines = ceil(n * bits_per_key / 512);
//                          line_bytes = 64, or for small filters (up to
//                          kMaxNarrowLines = 8 lines, cache_local/math.h)
//                          ceil(n * bits_per_key / (8 * num_lines)): whole
//                          bytes rather than whole 64-byte lines
//   1 byte                 hash kind: 1 = XXH3 64-bit, seed 0
//   1 byte                 layout: log2 of the line size in bytes, 6
//   1 byte                 k, 1..32 (0 only in the empty filter, below)
//   1 byte                 tag kCacheLocalTag (67, 'C')
// Each key sets k bits in one line (cache_local/probes.h); k is the one
// cache_local/math.h picks for the blocked layout. The line shape is not
// stored: it follows from the array's length (CacheLocalShapeOfArray). The tag sits where the
// LevelDB format keeps k, and is > 30, so LevelDB-era readers answer "may
// match" for every key instead of misreading the filter.
//
// Reader contract (fail open, never a false negative):
//   - the empty filter (no keys: no lines, k = 0) matches nothing;
//   - anything else inconsistent matches everything: a different final byte,
//     an unknown hash kind or layout, k = 0 or k > 32, a bit array that is
//     empty, has 2^32 lines or more, or has a length no builder writes
//     (neither whole 64-byte lines nor up to 8 equal narrow lines).
#ifndef SSTFILTER_FILTER_CACHE_LOCAL_BLOOM_H_
#define SSTFILTER_FILTER_CACHE_LOCAL_BLOOM_H_

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/types/span.h"
#include "filter/encoding_info.h"
#include "filter/builder_base.h"
#include "filter/hash_blocks.h"
#include "filter/key_hash64.h"
#include "filter/cache_local/probes.h"
#include "filter/cache_local/kernels.h"
#include "filter/reader_base.h"

namespace sstfilter {

inline constexpr unsigned char kCacheLocalTag = 'C';
inline constexpr unsigned char kCacheLocalHashXxh3 = 1;
inline constexpr unsigned char kCacheLocalLayout64 = 6;  // log2(64-byte lines)
inline constexpr size_t kCacheLocalTrailerBytes = 4;

// Whether filter carries this encoding's tag (its final byte). A reader
// serving several encodings dispatches on this; the trailer's other fields
// are checked by ParseCacheLocalFilter.
inline bool IsCacheLocalBloomFilter(std::string_view filter) {
  return filter.size() >= kCacheLocalTrailerBytes &&
         static_cast<unsigned char>(filter.back()) == kCacheLocalTag;
}

// What a cache-local filter's probes need: k over num_lines lines of
// line_bytes (64, or fewer in a narrow filter).
struct CacheLocalFilterLayout {
  const char* array = nullptr;
  int k = 0;
  uint32_t num_lines = 0;
  uint32_t line_bytes = 0;
};

// The format's one parse (the reader contract above): the tag, hash kind
// and layout; no lines and k = 0 the empty filter; else k of 1..32 over an
// array of a length some builder writes.
ParsedFilter<CacheLocalFilterLayout> ParseCacheLocalFilter(std::string_view filter);

// Collects key hashes, then writes one filter. Call order:
//   (AddKey | AddHash)* Finish
// Finish leaves the builder empty, ready for the next filter.
class CacheLocalBloomBuilder : public BuilderBase<CacheLocalBloomBuilder> {
 public:
  // REQUIRES: 0 < bits_per_key <= kMaxBitsPerKey. `simd` forces a kernel
  // level (tests, benchmarks); levels the CPU lacks fall back to lower ones.
  // Every level writes the same bytes.
  explicit CacheLocalBloomBuilder(double bits_per_key,
                                  SimdLevel simd = BestSimdLevel());
  // The next filter is written at bits_per_key; entries added are kept.
  void Retune(double bits_per_key);

  using Hash = uint64_t;
  static Hash HashKey(std::string_view key);

  void AddKey(std::string_view key) { AddHash(HashKey(key)); }
  // A hash equal to the previous one is dropped (HashBlocks::AddUnlessRepeat).
  void AddHash(Hash h) { hashes_.AddUnlessRepeat(h); }
  size_t NumEntries() const { return hashes_.size(); }
  // Calls visit(hash) for the hashes added since the last Finish, in order
  // (for post-verification).
  template <typename Visit>
  void ForEachHash(Visit&& visit) const {
    hashes_.ForEach(visit);
  }

  using BuilderBase::FinishInto;  // FinishInto(out): the FinishSize() bytes.
  // The same filter at another size, its lines the array's shape
  // (CacheLocalShapeOfArray). REQUIRES: bytes == FilterSize(NumEntries()) or
  // FittingFilterSize(NumEntries(), b) for some b, and not 0.
  void FinishInto(char* out, size_t bytes);

  // Bytes Finish appends for n entries: lines * line_bytes + 4
  // (CacheLocalFilterShape).
  size_t FilterSize(size_t num_entries) const;
  // Largest size <= bytes FinishInto(out, size) writes for n entries, 0 if
  // none. Filters of 64-byte lines take any whole number of lines (1 to
  // kMaxLines); small filters (narrow lines, CacheLocalFilterShape) and the
  // empty one keep their one size, as their shape follows from n.
  size_t FittingFilterSize(size_t num_entries, size_t bytes) const;
  // The FP model of the filter written at a size FittingBuiltSize gave.
  double BuiltFpRate(size_t bytes) const;
  // Largest n with FilterSize(n) <= bytes (0 if there is none): the exact
  // inverse RocksDB's partitioned filters size their partitions with; at
  // most kMaxFilterEntries. Past 2^32 - 1 lines (256 GiB) lines stop
  // growing; the answer is then capped at the n that fills them.
  size_t MaxEntriesForSize(size_t bytes) const;

 private:
  HashBlocks hashes_;  // Kept allocated across filters for reuse.
  SimdLevel simd_;
};

// Queries one filter. Parses the trailer once; the filter bytes must outlive
// the reader. Safe to use from several threads at once.
class CacheLocalBloomReader : public ReaderBase {
 public:
  // `simd` as for the builder: every level gives the same answers.
  explicit CacheLocalBloomReader(std::string_view filter,
                                 SimdLevel simd = BestSimdLevel());

  static bool Recognises(std::string_view filter) { return IsCacheLocalBloomFilter(filter); }

  // One query of a filter's bytes with no reader built (OneShotQuery,
  // filter_policy.h): MayMatch's answer, at the kernel level the context
  // resolved once. No allocation.
  struct OnceContext {
    explicit OnceContext(SimdLevel simd = BestSimdLevel());
    // The kernel's one-key probe of 64-byte lines.
    bool (*may_match)(uint64_t hash, int k, const char* array, uint32_t num_lines);
  };
  static bool MayMatchOnce(std::string_view filter, std::string_view key,
                           const OnceContext& context);

  // Inline, so that a caller's MayMatch (the RocksDB adapter's virtual one)
  // is one function: the hash, two predictable checks and one call into the
  // kernel. Out of cache, queries in a loop overlap their misses as far as
  // the instructions per query let them.
  bool MayMatch(std::string_view key) const { return HashMayMatch(KeyHash64(key)); }
  bool HashMayMatch(uint64_t h) const {
    if (!Probes()) return FixedAnswer();
    if (Narrow()) return NarrowMayMatch(h);
    return may_match_(h, num_probes_, array_, num_lines_);
  }

  // Answers as MayMatch does, for every key; out must hold keys.size()
  // entries. Hashes a chunk of keys and prefetches their lines before
  // probing any, so the cache misses of a big filter overlap.
  void MayMatchBatch(absl::Span<const std::string_view> keys, bool* out) const {
    MayMatchEach(keys.size(), [keys](size_t i) { return keys[i]; }, out);
  }
  // The same for keys held some other way: key i is key_at(i), a
  // std::string_view. RocksDB's MultiGet hands an array of Slice pointers,
  // read in place: copying them into views first would add a pass over the
  // keys to every batch.
  template <typename KeyAt>
  void MayMatchEach(size_t n, KeyAt key_at, bool* out) const;

  uint32_t num_lines() const { return num_lines_; }  // 0 unless kProbe.
  uint32_t line_bytes() const { return line_bytes_; }  // 64, or less when narrow.
  SimdLevel simd_level() const { return simd_; }

 private:
  // Narrow lines are probed by scalar code (they are small filters, and
  // the SIMD kernels work on 64-byte lines).
  bool Narrow() const { return line_bytes_ != 64; }
  bool NarrowMayMatch(uint64_t h) const;

  // What a single query reads comes first: with ReaderBase's fields, the
  // first 32 bytes of the object.
  uint32_t num_lines_ = 0;
  uint32_t line_bytes_ = 64;
  // The kernel's own may_match, copied out of its table: one load less
  // before the call.
  bool (*may_match_)(uint64_t hash, int k, const char* array, uint32_t num_lines) = nullptr;
  const CacheLocalKernels* kernels_ = nullptr;
  SimdLevel simd_;
};

template <typename KeyAt>
void CacheLocalBloomReader::MayMatchEach(size_t n, KeyAt key_at, bool* out) const {
  if (!Probes()) return FillFixedAnswer(n, out);
  if (Narrow()) {  // At most 512 bytes: no misses worth overlapping.
    for (size_t i = 0; i < n; ++i) out[i] = NarrowMayMatch(KeyHash64(key_at(i)));
    return;
  }
  // Chunks of up to kChunk keys: hash all and prefetch their lines, then
  // probe. The prefetches overlap the misses single queries take in turn.
  constexpr size_t kChunk = 32;
  uint64_t hashes[kChunk];
  for (size_t base = 0; base < n; base += kChunk) {
    const size_t chunk = std::min(kChunk, n - base);
    for (size_t i = 0; i < chunk; ++i) {
      hashes[i] = KeyHash64(key_at(base + i));
      cache_local::PrefetchLine(array_, hashes[i], num_lines_);
    }
    kernels_->query(hashes, chunk, num_probes_, array_, num_lines_, out + base);
  }
}

// Defined in cache_local/encoding.cc.
extern const EncodingInfo kCacheLocalEncodingInfo;
using CacheLocalEncoding =
    Encoding<CacheLocalBloomBuilder, CacheLocalBloomReader, kCacheLocalEncodingInfo,
             EncodingId::kCacheLocal>;

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_CACHE_LOCAL_BLOOM_H_

#include "filter/compact/filter.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

#include "absl/base/attributes.h"
#include "filter/bloom_math.h"
#include "filter/key_hash64.h"

namespace sstfilter {

namespace cp = compact;

namespace {

void PutFixed32(char* out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out[i] = static_cast<char>(v >> (8 * i));
}
uint32_t GetFixed32(const unsigned char* in) {
  return uint32_t{in[0]} | uint32_t{in[1]} << 8 | uint32_t{in[2]} << 16 | uint32_t{in[3]} << 24;
}

size_t FuseSize(const FuseShape& shape) {
  return static_cast<size_t>(shape.array_bytes()) + kCompactFuseTrailerBytes;
}

}  // namespace

size_t CompactBuildTempBytes(size_t num_keys, const FuseShape& shape) {
  const size_t blocks = (num_keys + HashBlocks::kBlockHashes - 1) / HashBlocks::kBlockHashes;
  return blocks * HashBlocks::kBlockHashes * sizeof(uint64_t) +
         FusePeeler::BytesFor(shape.num_cells());
}

CompactFilterBuilder::CompactFilterBuilder(double bits_per_key, CompactBuildOptions options)
    : BuilderBase(bits_per_key, kCompactArity), options_(options) {}

void CompactFilterBuilder::Retune(double bits_per_key) {
  SetSettings(bits_per_key, kCompactArity);
  planned_ = false;
}

CompactFilterBuilder::Hash CompactFilterBuilder::HashKey(std::string_view key) {
  return KeyHash64(key);
}

bool CompactFilterBuilder::UsesFuse(size_t n) const {
  return n >= kCompactMinFuseKeys && n <= kCompactMaxFuseKeys &&
         FuseSize(CompactFuseShape(n, bits_per_key_)) < TaggedBloomSize(n, bits_per_key_);
}

size_t CompactFilterBuilder::FilterSize(size_t n) const {
  return UsesFuse(n) ? FuseSize(CompactFuseShape(n, bits_per_key_))
                     : TaggedBloomSize(n, bits_per_key_);
}

size_t CompactFilterBuilder::MaxEntriesForSize(size_t bytes) const {
  if (bytes < FilterSize(1)) return 0;
  // FilterSize grows with n (the fuse shape's cells grow with n, and the
  // Bloom size does), tested in compact_filter_test.
  return LargestFittingEntries([&](size_t n) { return FilterSize(n) <= bytes; });
}

bool CompactFilterBuilder::TryFuse(size_t num_keys) {
  shape_ = CompactFuseShape(num_keys, bits_per_key_);
  if (CompactBuildTempBytes(num_keys, shape_) > options_.max_temp_bytes) return false;
  const cp::FuseParams params = cp::FuseParams::Of(shape_);
  for (; last_seeds_tried_ < options_.max_seeds; ++last_seeds_tried_) {
    seed_ = static_cast<uint32_t>(last_seeds_tried_);
    if (!peeler_.Start(params, shape_.num_cells(), seed_)) return false;
    if (FusePeeler::PrefetchPays(shape_.num_cells())) {
      hashes_.ForEach([this](uint64_t h) { peeler_.AddAhead(h); });
      peeler_.FinishAdds();
    } else {
      hashes_.ForEach([this](uint64_t h) { peeler_.Add(h); });
    }
    last_temp_bytes_ = std::max(last_temp_bytes_, hashes_.AllocatedBytes() + peeler_.AllocatedBytes());
    if (peeler_.Peel(num_keys)) return true;
    // Duplicate hashes never peel: remove them once, and re-plan if they were.
    if (last_seeds_tried_ == 0 && RemoveDuplicates()) {
      ++last_seeds_tried_;
      return UsesFuse(hashes_.size()) && TryFuse(hashes_.size());
    }
  }
  return false;
}

bool CompactFilterBuilder::RemoveDuplicates() {
  // Equal hashes are among the keys the failed peel left (usually a few):
  // sort those, not all. After an overflow nothing was peeled: every key is
  // a candidate, and the peeler's cells go first so the copy does not raise
  // the peak. No allocation failure escapes: it leaves the duplicates (the
  // seeds then fail and the filter is a Bloom fallback).
  const bool every_key = peeler_.overflowed();
  if (every_key) peeler_.Release();
  try {
    std::vector<uint64_t> left;
    hashes_.ForEach([&](uint64_t h) {
      if (every_key || peeler_.LeftUnpeeled(h)) left.push_back(h);
    });
    std::sort(left.begin(), left.end());
    std::vector<uint64_t> repeated;  // Sorted, distinct.
    for (size_t i = 1; i < left.size(); ++i) {
      if (left[i] == left[i - 1] && (repeated.empty() || repeated.back() != left[i])) {
        repeated.push_back(left[i]);
      }
    }
    last_temp_bytes_ = std::max(last_temp_bytes_,
                                hashes_.AllocatedBytes() + peeler_.AllocatedBytes() +
                                    (left.capacity() + repeated.capacity()) * sizeof(uint64_t));
    if (repeated.empty()) return false;
    KeepFirstOf(repeated);
    return true;
  } catch (const std::bad_alloc&) {
    return false;
  }
}

// Keeps the first occurrence of each hash in `repeated` (sorted), in place.
void CompactFilterBuilder::KeepFirstOf(const std::vector<uint64_t>& repeated) {
  std::vector<bool> kept(repeated.size(), false);
  size_t out = 0;
  for (size_t i = 0; i < hashes_.size(); ++i) {
    const uint64_t h = hashes_.At(i);
    const auto it = std::lower_bound(repeated.begin(), repeated.end(), h);
    if (it != repeated.end() && *it == h) {
      const size_t r = static_cast<size_t>(it - repeated.begin());
      if (kept[r]) continue;
      kept[r] = true;
    }
    hashes_.Set(out++, h);
  }
  hashes_.Truncate(out);
}

size_t CompactFilterBuilder::FinishSize() {
  if (planned_) return size_;
  last_seeds_tried_ = 0;
  last_temp_bytes_ = hashes_.AllocatedBytes();
  if (!UsesFuse(hashes_.size())) {
    body_ = Body::kSmallBloom;
  } else if (TryFuse(hashes_.size())) {
    body_ = Body::kFuse;
  } else {
    // Duplicates removed may have made the filter small enough for Bloom.
    body_ = UsesFuse(hashes_.size()) ? Body::kFallbackBloom : Body::kSmallBloom;
    peeler_.Release();
  }
  size_ = body_ == Body::kFuse ? FuseSize(shape_)
                               : TaggedBloomSize(hashes_.size(), bits_per_key_);
  planned_ = true;
  return size_;
}

size_t CompactFilterBuilder::FittingBuiltSize(size_t bytes) {
  FinishSize();
  if (body_ == Body::kFuse) {
    const std::optional<FuseShape> widths = FuseWidthsFor(bytes);
    return widths ? FuseSize(*widths) : 0;
  }
  return FittingTaggedBloomSize(hashes_.size(), bits_per_key_, bytes);
}

double CompactFilterBuilder::BuiltFpRate(size_t bytes) {
  FinishSize();
  if (body_ == Body::kFuse) {
    const std::optional<FuseShape> widths = FuseWidthsFor(bytes);
    return widths ? widths->FpRate() : 1.0;
  }
  return TaggedBloomFpRate(hashes_.size(), bytes, bits_per_key_);
}

// The widths on the built filter's cells that fill an array of
// bytes - trailer.
std::optional<FuseShape> CompactFilterBuilder::FuseWidthsFor(size_t bytes) const {
  if (bytes <= kCompactFuseTrailerBytes) return std::nullopt;
  return FitFingerprints(shape_, uint64_t{bytes - kCompactFuseTrailerBytes} * 8);
}

void CompactFilterBuilder::WriteBloom(char* out, size_t bytes, unsigned char body) {
  last_temp_bytes_ = std::max(last_temp_bytes_, 2 * hashes_.AllocatedBytes());
  WriteTaggedBloom(hashes_, bits_per_key_, body, kCompactTag, out, bytes);
}

void CompactFilterBuilder::WriteFuse(char* out, size_t bytes) {
  const FuseShape widths = *FuseWidthsFor(bytes);
  const size_t array_bytes = static_cast<size_t>(widths.array_bytes());
  assert(array_bytes + kCompactFuseTrailerBytes == bytes);
  peeler_.Assign(out, cp::FuseParams::Of(widths));
  char* t = out + array_bytes;
  PutFixed32(t, widths.segment_count);
  PutFixed32(t + 4, widths.narrow_cells);
  PutFixed32(t + 8, seed_);
  t[12] = static_cast<char>(widths.log_segment_length);
  t[13] = static_cast<char>(widths.fingerprint_bits);
  t[14] = static_cast<char>(kCompactArity);
  t[15] = static_cast<char>(kCompactHashXxh3);
  t[16] = static_cast<char>(kCompactBodyFuse);
  t[17] = static_cast<char>(kCompactTag);
}

void CompactFilterBuilder::FinishInto(char* out, size_t bytes) {
  FinishSize();
  assert(bytes != 0 && FittingBuiltSize(bytes) == bytes);
  switch (body_) {
    case Body::kSmallBloom:
      WriteBloom(out, bytes, kCompactBodySmallBloom);
      break;
    case Body::kFallbackBloom:
      ++num_fallbacks_;
      WriteBloom(out, bytes, kCompactBodyFallbackBloom);
      break;
    case Body::kFuse:
      WriteFuse(out, bytes);
      break;
  }
  Reset();
}

void CompactFilterBuilder::Reset() {
  hashes_.Release();
  peeler_.Release();
  planned_ = false;
}

namespace {

// CompactBloomBody and ParseCompactFuse, inlined where they are called in
// this file: into MayMatchOnce they must be, so that a one-shot query
// keeps the layout in registers and makes no call.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline std::optional<std::string_view> BloomBody(
    std::string_view filter) {
  return TaggedBloomBody(filter, kCompactTag);
}

ABSL_ATTRIBUTE_ALWAYS_INLINE inline ParsedFilter<CompactFuseLayout> ParseFuse(
    std::string_view filter) {
  if (!IsCompactFilter(filter) ||
      static_cast<unsigned char>(filter[filter.size() - 2]) != kCompactBodyFuse ||
      filter.size() < kCompactFuseTrailerBytes) {
    return {};
  }
  const size_t array_bytes = filter.size() - kCompactFuseTrailerBytes;
  const auto* t = reinterpret_cast<const unsigned char*>(filter.data() + array_bytes);
  FuseShape s;
  s.segment_count = GetFixed32(t);
  s.narrow_cells = GetFixed32(t + 4);
  const uint32_t seed = GetFixed32(t + 8);
  s.log_segment_length = t[12];
  s.fingerprint_bits = t[13];
  if (t[14] != kCompactArity || t[15] != kCompactHashXxh3) return {};
  if (s.log_segment_length > kCompactMaxLogSegmentLength || s.fingerprint_bits < 1 ||
      s.fingerprint_bits > kCompactMaxFingerprintBits || s.segment_count == 0) {
    return {};
  }
  // Cell indices, window starts and narrow_cells are 32-bit.
  if (s.num_cells() > 0xffffffffu || s.narrow_cells > s.window_starts()) return {};
  if (s.array_bytes() != array_bytes) return {};
  return {FilterState::kProbe, {filter.data(), s, cp::FuseParams::Of(s), cp::SeedMultiplier(seed)}};
}

}  // namespace

std::optional<std::string_view> CompactBloomBody(std::string_view filter) {
  return BloomBody(filter);
}

ParsedFilter<CompactFuseLayout> ParseCompactFuse(std::string_view filter) {
  return ParseFuse(filter);
}

CompactFilterReader::CompactFilterReader(std::string_view filter, SimdLevel simd)
    : group_kernel_(GetCompactQueryKernel(ClampSimdLevel(simd))),
      bloom_(CompactBloomBody(filter).value_or(std::string_view{}), simd) {
  // state_ starts as kMatchEverything: a filter neither body takes fails open.
  if (CompactBloomBody(filter)) {
    body_ = static_cast<unsigned char>(filter[filter.size() - 2]);
    state_ = bloom_.state();
    num_probes_ = bloom_.num_probes();
    return;
  }
  const ParsedFilter<CompactFuseLayout> fuse = ParseCompactFuse(filter);
  if (fuse.state != FilterState::kProbe) return;
  body_ = kCompactBodyFuse;
  state_ = FilterState::kProbe;
  num_probes_ = kCompactArity;
  array_ = fuse.layout.array;
  shape_ = fuse.layout.shape;
  params_ = fuse.layout.params;
  multiplier_ = fuse.layout.multiplier;
}

bool CompactFilterReader::HashMayMatch(uint64_t h) const {
  if (body_ == kCompactBodyFuse) return FuseMayMatch(array_, h, multiplier_, params_);
  if (body_ != 0) return bloom_.HashMayMatch(h);
  return FixedAnswer();
}

bool CompactFilterReader::MayMatch(std::string_view key) const {
  return HashMayMatch(KeyHash64(key));
}

bool CompactFilterReader::MayMatchOnce(std::string_view filter, std::string_view key,
                                       const OnceContext& context) {
  if (const std::optional<std::string_view> bloom = BloomBody(filter)) {
    return CacheLocalBloomReader::MayMatchOnce(*bloom, key, context.bloom);
  }
  return ParseFuse(filter).Answer([key](const CompactFuseLayout& l) {
    return FuseMayMatch(l.array, KeyHash64(key), l.multiplier, l.params);
  });
}

}  // namespace sstfilter

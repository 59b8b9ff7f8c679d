#include "filter/compact/filter.h"

#include <algorithm>
#include <new>
#include <vector>

#include "absl/base/attributes.h"
#include "filter/structured/fixed32.h"

namespace sstfilter {

namespace cp = compact;

size_t CompactBuildTempBytes(size_t num_keys, const FuseShape& shape) {
  const size_t blocks = (num_keys + HashBlocks::kBlockHashes - 1) / HashBlocks::kBlockHashes;
  return blocks * HashBlocks::kBlockHashes * sizeof(uint64_t) +
         FusePeeler::BytesFor(shape.num_cells());
}

CompactFilterBuilder::CompactFilterBuilder(double bits_per_key, CompactBuildOptions options)
    : StructuredBuilder(bits_per_key, kCompactArity), options_(options) {}

std::optional<FuseShape> CompactFilterBuilder::PlanBody(size_t n) const {
  if (n < kCompactMinFuseKeys || n > kCompactMaxFuseKeys) return std::nullopt;
  return CompactFuseShape(n, bits_per_key_);
}

size_t CompactFilterBuilder::BodyFilterSize(const FuseShape& shape) {
  return static_cast<size_t>(shape.array_bytes()) + kCompactFuseTrailerBytes;
}

// The widths on the built filter's cells that fill an array of
// bytes - trailer: a fuse filter at other sizes (which RocksDB may ask
// about, and optimize_filters_for_memory writes).
std::optional<FuseShape> CompactFilterBuilder::FitBody(const FuseShape& built, size_t bytes) {
  if (bytes <= kCompactFuseTrailerBytes) return std::nullopt;
  return FitFingerprints(built, uint64_t{bytes - kCompactFuseTrailerBytes} * 8);
}

bool CompactFilterBuilder::BuildBody() {
  last_seeds_tried_ = 0;
  return TryFuse(hashes_.size());
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
    last_temp_bytes_ =
        std::max(last_temp_bytes_, hashes_.AllocatedBytes() + peeler_.AllocatedBytes());
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
    last_temp_bytes_ =
        std::max(last_temp_bytes_, hashes_.AllocatedBytes() + peeler_.AllocatedBytes() +
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

void CompactFilterBuilder::WriteBody(const FuseShape& widths, char* out) {
  const size_t array_bytes = static_cast<size_t>(widths.array_bytes());
  peeler_.Assign(out, cp::FuseParams::Of(widths));
  char* t = out + array_bytes;
  PutFixed32(t, widths.segment_count);
  PutFixed32(t + 4, widths.narrow_cells);
  PutFixed32(t + 8, seed_);
  t[12] = static_cast<char>(widths.log_segment_length);
  t[13] = static_cast<char>(widths.fingerprint_bits);
  t[14] = static_cast<char>(kCompactArity);
  t[15] = static_cast<char>(kCompactHashXxh3);
}

namespace {

// ParseCompactFuse, inlined where it is called in this file: into
// MayMatchOnce it must be, so that a one-shot query keeps the layout in
// registers and makes no call.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline ParsedFilter<CompactFuseLayout> ParseFuse(
    std::string_view filter) {
  if (!HasStructuredBody(filter, kCompactTag, kCompactFuseTrailerBytes)) return {};
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

ParsedFilter<CompactFuseLayout> ParseCompactFuse(std::string_view filter) {
  return ParseFuse(filter);
}

bool CompactFilterReader::MayMatchOnce(std::string_view filter, std::string_view key,
                                       const OnceContext& context) {
  return OnceMayMatch<ParseFuse>(filter, key, context, [](const CompactFuseLayout& l, uint64_t h) {
    return FuseMayMatch(l, h);
  });
}

}  // namespace sstfilter

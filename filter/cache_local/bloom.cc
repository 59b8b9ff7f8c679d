#include "filter/cache_local/bloom.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>

#include "absl/base/attributes.h"
#include "filter/bloom_math.h"
#include "filter/key_hash64.h"
#include "filter/cache_local/math.h"
#include "filter/cache_local/probes.h"

namespace sstfilter {

namespace cl = cache_local;

namespace {

// Narrow lines are probed by the scalar code (small filters; the SIMD
// kernels work on 64-byte lines).
bool NarrowLinesMayMatch(const char* array, uint64_t h, int k, uint32_t num_lines,
                         uint32_t line_bytes) {
  return cl::NarrowLineMayMatch(array + cl::NarrowLineOffset(h, num_lines, line_bytes),
                                cl::ProbeSeed(h), k, line_bytes);
}

// ParseCacheLocalFilter, inlined where it is called in this file: into
// MayMatchOnce it must be, so that a one-shot query keeps the layout in
// registers and makes no call.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline ParsedFilter<CacheLocalFilterLayout> Parse(
    std::string_view filter) {
  if (!IsCacheLocalBloomFilter(filter)) return {};
  const size_t array_bytes = filter.size() - kCacheLocalTrailerBytes;
  const auto* trailer = reinterpret_cast<const unsigned char*>(filter.data() + array_bytes);
  if (trailer[0] != kCacheLocalHashXxh3 || trailer[1] != kCacheLocalLayout64) return {};
  const int k = trailer[2];
  if (array_bytes == 0 && k == 0) return {FilterState::kMatchNothing, {}};
  if (k == 0 || k > cl::kMaxProbes || array_bytes == 0) return {};
  const std::optional<CacheLocalShape> shape = CacheLocalShapeOfArray(array_bytes);
  if (!shape || shape->num_lines > cl::kMaxLines) return {};
  return {FilterState::kProbe,
          {filter.data(), k, static_cast<uint32_t>(shape->num_lines), shape->line_bytes}};
}

}  // namespace

ParsedFilter<CacheLocalFilterLayout> ParseCacheLocalFilter(std::string_view filter) {
  return Parse(filter);
}

CacheLocalBloomBuilder::CacheLocalBloomBuilder(double bits_per_key, SimdLevel simd)
    : BuilderBase(bits_per_key, CacheLocalNumProbes(bits_per_key)),
      simd_(ClampSimdLevel(simd)) {}

void CacheLocalBloomBuilder::Retune(double bits_per_key) {
  SetSettings(bits_per_key, CacheLocalNumProbes(bits_per_key));
}

CacheLocalBloomBuilder::Hash CacheLocalBloomBuilder::HashKey(std::string_view key) {
  return KeyHash64(key);
}

size_t CacheLocalBloomBuilder::FilterSize(size_t num_entries) const {
  return static_cast<size_t>(CacheLocalFilterShape(num_entries, bits_per_key_).array_bytes()) +
         kCacheLocalTrailerBytes;
}

size_t CacheLocalBloomBuilder::MaxEntriesForSize(size_t bytes) const {
  if (bytes < FilterSize(1)) return 0;
  const uint64_t lines =
      std::min<uint64_t>((bytes - kCacheLocalTrailerBytes) / cl::kLineBytes, cl::kMaxLines);
  // FilterSize grows with n (narrow lines up to 64 bytes, then the next
  // line count). Past kMaxLines the line count stops growing with n; there,
  // n fits while it does not overfill the capped lines.
  const double capacity_bits = static_cast<double>(lines) * cl::kLineBits;
  return LargestFittingEntries([&](size_t n) {
    return FilterSize(n) <= bytes &&
           (lines < cl::kMaxLines || static_cast<double>(n) * bits_per_key_ <= capacity_bits);
  });
}

size_t CacheLocalBloomBuilder::FittingFilterSize(size_t num_entries, size_t bytes) const {
  const size_t target = FilterSize(num_entries);
  if (CacheLocalNumLines(num_entries, bits_per_key_) <= kMaxNarrowLines) {
    return target <= bytes ? target : 0;
  }
  if (bytes < kCacheLocalTrailerBytes) return 0;
  const uint64_t lines =
      std::min<uint64_t>((bytes - kCacheLocalTrailerBytes) / cl::kLineBytes, cl::kMaxLines);
  return lines == 0 ? 0 : static_cast<size_t>(lines * cl::kLineBytes) + kCacheLocalTrailerBytes;
}

double CacheLocalBloomBuilder::BuiltFpRate(size_t bytes) const {
  return kCacheLocalEncodingInfo.sized_fp_rate(NumEntries(), bytes, bits_per_key());
}

void CacheLocalBloomBuilder::FinishInto(char* out, size_t bytes) {
  assert(bytes >= kCacheLocalTrailerBytes);
  const std::optional<CacheLocalShape> array_shape =
      CacheLocalShapeOfArray(bytes - kCacheLocalTrailerBytes);
  assert(array_shape.has_value() && array_shape->num_lines <= cl::kMaxLines);
  // (Should the REQUIRES be broken: the whole lines the bytes hold.)
  const CacheLocalShape shape = array_shape.value_or(
      CacheLocalShape{(bytes - kCacheLocalTrailerBytes) / cl::kLineBytes});
  const uint64_t lines = shape.num_lines;
  const size_t array_bytes = static_cast<size_t>(shape.array_bytes());
  std::memset(out, 0, array_bytes);
  if (lines > 0 && shape.line_bytes != cl::kLineBytes) {
    hashes_.ForEach([&](Hash h) {
      cl::NarrowLineAdd(out + cl::NarrowLineOffset(h, static_cast<uint32_t>(lines),
                                                   shape.line_bytes),
                        cl::ProbeSeed(h), num_probes_, shape.line_bytes);
    });
  } else if (lines > 0) {
    const CacheLocalKernels& kernels = GetCacheLocalKernels(simd_);
    hashes_.ForEachBlock([&](const Hash* block, size_t n) {
      kernels.add(block, n, num_probes_, out, static_cast<uint32_t>(lines));
    });
  }
  char* trailer = out + array_bytes;
  trailer[0] = static_cast<char>(kCacheLocalHashXxh3);
  trailer[1] = static_cast<char>(kCacheLocalLayout64);
  // The empty filter has k = 0: it matches nothing (see the header).
  trailer[2] = static_cast<char>(lines > 0 ? num_probes_ : 0);
  trailer[3] = static_cast<char>(kCacheLocalTag);
  hashes_.Truncate(0);
}

CacheLocalBloomReader::CacheLocalBloomReader(std::string_view filter, SimdLevel simd)
    : simd_(ClampSimdLevel(simd)) {
  kernels_ = &GetCacheLocalKernels(simd_);
  may_match_ = kernels_->may_match;
  const ParsedFilter<CacheLocalFilterLayout> parsed = ParseCacheLocalFilter(filter);
  if (!TakeParsed(parsed)) return;
  num_lines_ = parsed.layout.num_lines;
  line_bytes_ = parsed.layout.line_bytes;
}

bool CacheLocalBloomReader::NarrowMayMatch(uint64_t h) const {
  return NarrowLinesMayMatch(array_, h, num_probes_, num_lines_, line_bytes_);
}

CacheLocalBloomReader::OnceContext::OnceContext(SimdLevel simd)
    : may_match(GetCacheLocalKernels(ClampSimdLevel(simd)).may_match) {}

bool CacheLocalBloomReader::MayMatchOnce(std::string_view filter, std::string_view key,
                                         const OnceContext& context) {
  return Parse(filter).Answer([key, &context](const CacheLocalFilterLayout& l) {
    const uint64_t h = KeyHash64(key);
    if (l.line_bytes != cl::kLineBytes) {
      return NarrowLinesMayMatch(l.array, h, l.k, l.num_lines, l.line_bytes);
    }
    return context.may_match(h, l.k, l.array, l.num_lines);
  });
}

}  // namespace sstfilter

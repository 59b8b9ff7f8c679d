#include "filter/filter_policy.h"

#include <cstddef>
#include <cstdint>
#include <optional>

#include "absl/base/attributes.h"
#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "filter/cache_local/bloom.h"
#include "filter/cache_local/kernels.h"
#include "filter/cache_local/math.h"
#include "filter/cache_local/probes.h"
#include "filter/compact/filter.h"
#include "filter/compact/math.h"
#include "filter/compact/probes.h"
#include "filter/encodings.h"
#include "filter/key_hash64.h"
#include "filter/leveldb/hash.h"
#include "filter/leveldb/kernels.h"
#include "filter/leveldb/probes.h"

namespace sstfilter {

namespace {

// ---- OneShotQuery, parsing: a filter's trailer checked field by field as
// its reader's constructor checks it (leveldb/bloom.cc, cache_local/bloom.cc,
// compact/filter.cc; the formats are in their headers), into what its probes
// need. No key is looked at here. filter_policy_test holds the answers equal
// to the readers', damaged and unknown bytes included.

// A filter as parsed: the answer every key gets, or (kProbe) what to probe.
template <typename Layout>
struct Parsed {
  FilterState state = FilterState::kMatchEverything;  // Fails open.
  Layout layout{};  // Set when kProbe.
};

struct LevelDbLayout {
  const char* array = nullptr;
  int k = 0;
  uint64_t num_bits = 0;
};

// Under 2 bytes the empty filter; k, the final byte, of 1..30 probed over
// the bytes before it; any other k (0, never written) may match.
Parsed<LevelDbLayout> ParseLevelDb(std::string_view filter) {
  if (filter.size() < 2) return {FilterState::kMatchNothing, {}};
  const int k = static_cast<unsigned char>(filter.back());
  if (k == 0 || k > kLevelDbMaxProbes) return {};
  return {FilterState::kProbe, {filter.data(), k, uint64_t{filter.size() - 1} * 8}};
}

struct CacheLocalLayout {
  const char* array = nullptr;
  int k = 0;
  uint32_t num_lines = 0;
  uint32_t line_bytes = 0;
};

// The tag, hash kind and layout; no lines and k = 0 the empty filter; else
// k of 1..32 over an array of a length some builder writes.
Parsed<CacheLocalLayout> ParseCacheLocal(std::string_view filter) {
  if (filter.size() < kCacheLocalTrailerBytes ||
      static_cast<unsigned char>(filter.back()) != kCacheLocalTag) {
    return {};
  }
  const size_t array_bytes = filter.size() - kCacheLocalTrailerBytes;
  const auto* trailer = reinterpret_cast<const unsigned char*>(filter.data() + array_bytes);
  if (trailer[0] != kCacheLocalHashXxh3 || trailer[1] != kCacheLocalLayout64) return {};
  const int k = trailer[2];
  if (array_bytes == 0 && k == 0) return {FilterState::kMatchNothing, {}};
  if (k == 0 || k > cache_local::kMaxProbes || array_bytes == 0) return {};
  const std::optional<CacheLocalShape> shape = CacheLocalShapeOfArray(array_bytes);
  if (!shape || shape->num_lines > cache_local::kMaxLines) return {};
  return {FilterState::kProbe,
          {filter.data(), k, static_cast<uint32_t>(shape->num_lines), shape->line_bytes}};
}

// The cache-local filter a compact filter's Bloom body is (the bytes before
// its 2-byte trailer), or nullopt when its body is no Bloom.
// REQUIRES: filter ends in kCompactTag and has 2 bytes or more.
std::optional<std::string_view> CompactBloomBody(std::string_view filter) {
  const auto body = static_cast<unsigned char>(filter[filter.size() - 2]);
  if (body != kCompactBodySmallBloom && body != kCompactBodyFallbackBloom) return std::nullopt;
  return filter.substr(0, filter.size() - kCompactBloomTrailerBytes);
}

struct FuseLayout {
  const char* array = nullptr;
  compact::FuseParams params;
  uint64_t multiplier = 0;  // compact::SeedMultiplier(seed).
};

uint32_t GetFixed32(const unsigned char* in) {
  return uint32_t{in[0]} | uint32_t{in[1]} << 8 | uint32_t{in[2]} << 16 | uint32_t{in[3]} << 24;
}

// A fuse body: the 18-byte trailer's every field in range, and the array as
// long as its shape says. Anything else (another body kind) may match.
// REQUIRES: filter ends in kCompactTag and has 2 bytes or more.
Parsed<FuseLayout> ParseFuse(std::string_view filter) {
  if (static_cast<unsigned char>(filter[filter.size() - 2]) != kCompactBodyFuse ||
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
  if (s.num_cells() > 0xffffffffu || s.narrow_cells > s.window_starts()) return {};
  if (s.array_bytes() != array_bytes) return {};
  return {FilterState::kProbe,
          {filter.data(), compact::FuseParams::Of(s), compact::SeedMultiplier(seed)}};
}

// ---- OneShotQuery, probing: each encoding's probe math on a parsed layout.

// h % bits by the division instruction, as LevelDB's own reader takes it
// (here a 32-bit one). For one query this beats FastMod32, which the
// readers' kernels use: its setup is itself a 64-bit division, on the path
// to every probe (present keys: 16.2 against 13.0 ns a query, Zen 4). Arrays
// of 2^32 bits or more leave h as it is, as % does.
struct DividingMod32 {
  uint64_t bits;
  uint32_t Mod(uint32_t h) const {
    return bits >= (uint64_t{1} << 32) ? h : h % static_cast<uint32_t>(bits);
  }
};

bool ProbeLevelDb(const LevelDbLayout& l, std::string_view key) {
  return leveldb_probes::ForEachProbe(
      LevelDbBloomHash(key), l.k, DividingMod32{l.num_bits},
      [array = l.array](uint32_t pos) { return leveldb_probes::TestBit(array, pos); });
}

using CacheLocalMayMatchFn = bool (*)(uint64_t hash, int k, const char* array,
                                      uint32_t num_lines);

// Narrow lines by the scalar code, 64-byte lines by the kernel (as the reader).
bool ProbeCacheLocal(const CacheLocalLayout& l, uint64_t h, CacheLocalMayMatchFn may_match) {
  if (l.line_bytes != cache_local::kLineBytes) {
    return cache_local::NarrowLineMayMatch(
        l.array + cache_local::NarrowLineOffset(h, l.num_lines, l.line_bytes),
        cache_local::ProbeSeed(h), l.k, l.line_bytes);
  }
  return may_match(h, l.k, l.array, l.num_lines);
}

bool ProbeFuse(const FuseLayout& l, uint64_t h) {
  return compact::FuseMayMatch(l.array, h, compact::CellsOf(h, l.multiplier, l.params),
                               l.params);
}

// ---- OneShotQuery, glue.

// A parsed filter's answer: its fixed one, or probe(layout).
template <typename Layout, typename Probe>
bool Answer(const Parsed<Layout>& parsed, Probe probe) {
  switch (parsed.state) {
    case FilterState::kProbe:
      return probe(parsed.layout);
    case FilterState::kMatchNothing:
      return false;
    case FilterState::kMatchEverything:
      break;
  }
  return true;
}

// One encoding's query each. Not inlined into OneShotQuery::KeyMayMatch,
// which then tail-calls them: the XXH3 hash inlined there would give every
// query (LevelDB's too) its register saves and stack frame.

bool LevelDbMayMatch(std::string_view key, std::string_view filter) {
  return Answer(ParseLevelDb(filter),
                [key](const LevelDbLayout& l) { return ProbeLevelDb(l, key); });
}

ABSL_ATTRIBUTE_NOINLINE bool CacheLocalMayMatch(std::string_view key, std::string_view filter,
                                                CacheLocalMayMatchFn may_match) {
  return Answer(ParseCacheLocal(filter), [key, may_match](const CacheLocalLayout& l) {
    return ProbeCacheLocal(l, KeyHash64(key), may_match);
  });
}

// REQUIRES: filter ends in kCompactTag and has 2 bytes or more.
ABSL_ATTRIBUTE_NOINLINE bool CompactMayMatch(std::string_view key, std::string_view filter,
                                             CacheLocalMayMatchFn may_match) {
  if (const std::optional<std::string_view> bloom = CompactBloomBody(filter)) {
    return CacheLocalMayMatch(key, *bloom, may_match);
  }
  return Answer(ParseFuse(filter),
                [key](const FuseLayout& l) { return ProbeFuse(l, KeyHash64(key)); });
}

// Filters of an encoding with no query above, or of none.
ABSL_ATTRIBUTE_NOINLINE bool ReaderMayMatch(std::string_view key, std::string_view filter) {
  return VisitEncodingOf(filter, [&](auto encoding) {
    return typename decltype(encoding)::Reader(filter).MayMatch(key);
  });
}

class BloomFilterPolicy final : public FilterPolicy {
 public:
  // REQUIRES: options resolved (ResolveFilterOptions).
  explicit BloomFilterPolicy(const FilterOptions& options) : options_(options) {}

  const char* Name() const override { return kBloomPolicyName; }

  void CreateFilter(absl::Span<const std::string_view> keys,
                    std::string* dst) const override {
    VisitEncoding(options_.encoding, [&](auto encoding) {
      typename decltype(encoding)::Builder builder(options_.bits_per_key);
      for (std::string_view key : keys) builder.AddKey(key);
      builder.Finish(dst);
    });
  }

  bool KeyMayMatch(std::string_view key, std::string_view filter) const override {
    return query_.KeyMayMatch(key, filter);
  }

 private:
  const FilterOptions options_;
  const OneShotQuery query_;
};

}  // namespace

OneShotQuery::OneShotQuery(SimdLevel simd)
    : simd_(ClampSimdLevel(simd)),
      cache_local_may_match_(GetCacheLocalKernels(simd_).may_match) {}

bool OneShotQuery::KeyMayMatch(std::string_view key, std::string_view filter) const {
  // The encoding by the final byte, as they recognise their bytes
  // (encodings.h, in order): LevelDB's takes under 2 bytes and k 0..30.
  if (filter.size() < 2 || static_cast<unsigned char>(filter.back()) <= kLevelDbMaxProbes) {
    return LevelDbMayMatch(key, filter);
  }
  const auto tag = static_cast<unsigned char>(filter.back());
  if (tag == kCacheLocalTag && filter.size() >= kCacheLocalTrailerBytes) {
    return CacheLocalMayMatch(key, filter, cache_local_may_match_);
  }
  if (tag == kCompactTag) return CompactMayMatch(key, filter, cache_local_may_match_);
  // Another final byte: an encoding without a query here (read by its
  // reader), or none (UnrecognisedEncoding: may match).
  return ReaderMayMatch(key, filter);
}

absl::StatusOr<std::unique_ptr<const FilterPolicy>> NewFilterPolicy(
    const FilterOptions& options) {
  absl::StatusOr<FilterOptions> resolved = ResolveFilterOptions(options);
  if (!resolved.ok()) return resolved.status();
  if (resolved->compact_from_level.has_value()) {
    // CreateFilter is not told which table, let alone which level, it builds
    // for (LevelDB's FilterPolicy neither): one format for every filter.
    return absl::InvalidArgumentError(absl::StrFormat(
        "%s: %s=%d needs a host that tells the policy each table's level (RocksDB); this "
        "policy (and LevelDB's) writes one format for every table: drop %s, or choose "
        "format=compact for all", kBloomPolicyName, kCompactFromLevelName,
        *resolved->compact_from_level, kCompactFromLevelName));
  }
  return std::make_unique<BloomFilterPolicy>(*resolved);
}

}  // namespace sstfilter

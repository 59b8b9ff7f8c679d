#include "bench/soak.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <string_view>
#include <type_traits>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "absl/types/span.h"
#include "bench/soak_keys.h"
#include "filter/encodings.h"

namespace sstfilter::bench {
namespace {

// Keys per timed query chunk: long enough that the clock's cost vanishes,
// short enough to stay in L1 with its answers.
constexpr size_t kChunkKeys = 512;
// Spreads round seeds apart (an odd 64-bit constant).
constexpr uint64_t kRoundSeedStride = 0x9E3779B97F4A7C15ULL;

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Builders and readers of encodings with SIMD levels take the level; the
// others are built without one.
template <typename E>
constexpr bool kHasSimdLevels = std::is_constructible_v<typename E::Builder, double, SimdLevel>;

template <typename E>
typename E::Builder MakeBuilder(double bits_per_key, std::optional<SimdLevel> simd) {
  if constexpr (kHasSimdLevels<E>) {
    return typename E::Builder(bits_per_key, *simd);
  } else {
    return typename E::Builder(bits_per_key);
  }
}

template <typename E>
typename E::Reader MakeReader(std::string_view filter, std::optional<SimdLevel> simd) {
  if constexpr (kHasSimdLevels<E>) {
    return typename E::Reader(filter, *simd);
  } else {
    return typename E::Reader(filter);
  }
}

struct QueryCount {
  uint64_t positives = 0;  // "May match" answers.
  double seconds = 0;      // In the filter's query calls alone.
};

// Asks keys [0, n) of stream, chunk by chunk, on the configured path.
template <typename Reader>
QueryCount QueryStream(const Reader& reader, const SoakKeyStream& stream, uint64_t n,
                       bool batched, SoakKeyChunk& chunk, bool* answers) {
  QueryCount count;
  for (uint64_t first = 0; first < n; first += kChunkKeys) {
    const size_t size = static_cast<size_t>(std::min<uint64_t>(kChunkKeys, n - first));
    chunk.Fill(stream, first, size);
    const std::vector<std::string_view>& keys = chunk.keys();
    const Clock::time_point start = Clock::now();
    if (batched) {
      reader.MayMatchBatch(absl::MakeConstSpan(keys), answers);
    } else {
      for (size_t j = 0; j < size; ++j) answers[j] = reader.MayMatch(keys[j]);
    }
    count.seconds += SecondsSince(start);
    for (size_t j = 0; j < size; ++j) count.positives += answers[j] ? 1 : 0;
  }
  return count;
}

template <typename E>
absl::StatusOr<SoakResult> RunEncoding(const SoakConfig& config, double bits_per_key,
                                       double absent_ratio) {
  const Clock::time_point start = Clock::now();
  SoakResult result;
  result.fp_model = E::kInfo.expected_fp_rate(config.num_keys, bits_per_key);
  typename E::Builder builder = MakeBuilder<E>(bits_per_key, config.simd);
  SoakKeyChunk chunk(kChunkKeys);
  auto answers = std::make_unique<bool[]>(kChunkKeys);
  std::string filter;
  char key[SoakKeyStream::kMaxLength];
  for (uint64_t round = 0; result.checks < config.checks; ++round) {
    const uint64_t seed = config.seed + round * kRoundSeedStride;
    const SoakKeyStream present(seed, /*present=*/true), absent(seed, /*present=*/false);
    for (uint64_t i = 0; i < config.num_keys; ++i) {
      builder.AddKey(std::string_view(key, present.Key(i, key)));
    }
    filter.clear();
    builder.Finish(&filter);
    const typename E::Reader reader = MakeReader<E>(filter, config.simd);
    if (reader.state() != FilterState::kProbe) {
      return absl::InternalError(absl::StrFormat(
          "%s filter of %d keys is not probed (state %d)", E::kInfo.name, config.num_keys,
          static_cast<int>(reader.state())));
    }
    ++result.filters;

    const uint64_t checks = std::min<uint64_t>(config.num_keys, config.checks - result.checks);
    const QueryCount found = QueryStream(reader, present, checks, config.batched, chunk, answers.get());
    result.checks += checks;
    result.false_negatives += checks - found.positives;
    result.check_seconds += found.seconds;

    const auto absent_n = static_cast<uint64_t>(std::ceil(static_cast<double>(checks) * absent_ratio));
    result.false_positives +=
        QueryStream(reader, absent, absent_n, config.batched, chunk, answers.get()).positives;
    result.absent_queries += absent_n;
  }
  result.total_seconds = SecondsSince(start);
  return result;
}

}  // namespace

std::string SoakConfig::SimdName() const {
  return simd ? std::string(SimdLevelName(*simd)) : "per-k";
}

double SoakResult::FpRate() const {
  return absent_queries == 0 ? 0.0
                             : static_cast<double>(false_positives) / static_cast<double>(absent_queries);
}

bool SoakResult::FpFarAboveModel() const {
  const auto q = static_cast<double>(absent_queries);
  const double p = std::min(1.0, kFpToleratedFactor * fp_model);
  const double bound = q * p + 6.0 * std::sqrt(q * p * (1.0 - p)) + 3.0;
  return static_cast<double>(false_positives) > bound;
}

absl::StatusOr<std::vector<SoakConfig>> PlanSoak(const std::vector<EncodingId>& encodings,
                                                 size_t min_keys, size_t max_keys,
                                                 uint64_t total_checks, uint64_t seed) {
  if (min_keys < 1 || min_keys > max_keys) {
    return absl::InvalidArgumentError(
        absl::StrFormat("key counts %d..%d are not a range of positive counts", min_keys, max_keys));
  }
  std::vector<SoakConfig> configs;
  for (EncodingId encoding : encodings) {
    std::vector<std::optional<SimdLevel>> levels = {std::nullopt};
    VisitEncoding(encoding, [&levels](auto e) {
      if constexpr (kHasSimdLevels<decltype(e)>) {
        levels.assign(SupportedSimdLevels().begin(), SupportedSimdLevels().end());
      }
    });
    for (std::optional<SimdLevel> simd : levels) {
      for (bool batched : {false, true}) {
        for (size_t n = min_keys; n <= max_keys; n = n > max_keys / 10 ? max_keys + 1 : n * 10) {
          SoakConfig config;
          config.encoding = encoding;
          config.simd = simd;
          config.batched = batched;
          config.num_keys = n;
          configs.push_back(config);
        }
      }
    }
  }
  if (total_checks < configs.size()) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "--checks=%d leaves some of the %d configurations without checks", total_checks,
        configs.size()));
  }
  for (size_t i = 0; i < configs.size(); ++i) {
    configs[i].checks = total_checks / configs.size() + (i < total_checks % configs.size() ? 1 : 0);
    configs[i].seed = seed * kRoundSeedStride + (uint64_t{i} << 40);
  }
  return configs;
}

absl::StatusOr<SoakResult> RunSoakConfig(const SoakConfig& config, double bits_per_key,
                                         double absent_ratio) {
  return VisitEncoding(config.encoding, [&](auto encoding) {
    return RunEncoding<decltype(encoding)>(config, bits_per_key, absent_ratio);
  });
}

}  // namespace sstfilter::bench

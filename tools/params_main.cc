// sstfilter_params: Bloom filter sizing calculator.
//
//   sstfilter_params --keys 1000000 --fp 0.01
//   sstfilter_params --keys 1000000 --bits_per_key 10
//   sstfilter_params --keys 1000000 --bits_per_key 10 --format cache_local
//
// Prints bits/key, k, filter bytes and the expected FP rate of the chosen
// encoding (default: the LevelDB-compatible one) for the given key count.
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_format.h"
#include "filter/bloom_format.h"
#include "filter/bloom_math.h"
#include "filter/bloom_options.h"
#include "filter/cache_local_bloom.h"
#include "filter/cache_local_math.h"
#include "tools/flags_usage.h"

ABSL_FLAG(int64_t, keys, 0, "number of keys the filter will hold (> 0)");
ABSL_FLAG(std::optional<double>, fp, std::nullopt,
          "target false-positive rate, 0 < fp < 1");
ABSL_FLAG(std::optional<double>, bits_per_key, std::nullopt,
          "bits of filter per key, in (0, 100]");
ABSL_FLAG(std::string, format, "leveldb", "filter encoding: leveldb or cache_local");

namespace {

// The cache-local encoding: whole 64-byte lines, k for the blocked layout.
void PrintCacheLocal(int64_t keys, std::optional<double> fp, double bits_per_key) {
  const auto n = static_cast<size_t>(keys);
  const uint64_t lines = sstfilter::CacheLocalNumLines(n, bits_per_key);
  const int k = sstfilter::CacheLocalNumProbes(bits_per_key);
  absl::PrintF("encoding           cache_local\n");
  absl::PrintF("keys               %d\n", keys);
  if (fp.has_value()) absl::PrintF("target fp rate     %.6g\n", *fp);
  absl::PrintF("bits/key           %.4f\n", bits_per_key);
  absl::PrintF("k (probes)         %d\n", k);
  absl::PrintF("lines (64 bytes)   %d\n", lines);
  absl::PrintF("filter bytes       %d\n",
               sstfilter::CacheLocalBloomBuilder(bits_per_key).FilterSize(n));
  absl::PrintF("expected fp rate   %.6g\n",
               sstfilter::CacheLocalExpectedFpRate(n, bits_per_key));
  // The same bits and k spread over one big array, for comparison: the
  // price of keeping every key in one cache line.
  absl::PrintF("  standard bloom   %.6g\n",
               sstfilter::StandardBloomFpRate(static_cast<double>(n),
                                              static_cast<double>(lines) * 512, k));
}

}  // namespace

int main(int argc, char** argv) {
  sstfilter::SetToolUsage(
      "tools/params_main.cc",
      "Bloom filter sizing.\n"
      "  sstfilter_params --keys N (--fp P | --bits_per_key B) [--format leveldb|cache_local]");
  std::vector<char*> rest = absl::ParseCommandLine(argc, argv);
  auto fail = [](const std::string& msg) {
    absl::FPrintF(stderr, "sstfilter_params: %s\n", msg);
    return 2;
  };
  if (rest.size() > 1) {
    return fail(absl::StrFormat("unexpected argument '%s'", rest[1]));
  }
  const int64_t keys = absl::GetFlag(FLAGS_keys);
  if (keys <= 0 || static_cast<uint64_t>(keys) > sstfilter::kMaxFilterEntries) {
    return fail(absl::StrFormat("--keys=%d: need a key count in [1, %d]", keys,
                                sstfilter::kMaxFilterEntries));
  }
  const auto fp = absl::GetFlag(FLAGS_fp);
  const auto bits = absl::GetFlag(FLAGS_bits_per_key);
  if (fp.has_value() == bits.has_value()) {
    return fail("give exactly one of --fp and --bits_per_key");
  }
  sstfilter::BloomOptions options;
  options.fp_rate = fp;
  if (bits.has_value()) options.bits_per_key = *bits;
  absl::StatusOr<double> bits_per_key = sstfilter::ResolveBitsPerKey(options);
  if (!bits_per_key.ok()) return fail(std::string(bits_per_key.status().message()));
  const std::string format_name = absl::GetFlag(FLAGS_format);
  const std::optional<sstfilter::BloomFormat> format =
      sstfilter::ParseBloomFormat(format_name);
  if (!format.has_value()) {
    return fail(absl::StrFormat("--format=%s: unknown encoding (expected leveldb or cache_local)",
                                format_name));
  }
  if (*format == sstfilter::BloomFormat::kCacheLocal) {
    PrintCacheLocal(keys, fp, *bits_per_key);
    return 0;
  }

  const auto n = static_cast<size_t>(keys);
  const size_t filter_bits = sstfilter::LevelDbFilterBits(n, *bits_per_key);
  const int k = sstfilter::LevelDbNumProbes(*bits_per_key);
  absl::PrintF("encoding           leveldb\n");
  absl::PrintF("keys               %d\n", keys);
  if (fp.has_value()) absl::PrintF("target fp rate     %.6g\n", *fp);
  absl::PrintF("bits/key           %.4f\n", *bits_per_key);
  absl::PrintF("k (probes)         %d\n", k);
  absl::PrintF("filter bytes       %d\n", filter_bits / 8 + 1);
  absl::PrintF("expected fp rate   %.6g\n",
               sstfilter::LevelDbExpectedFpRate(n, *bits_per_key));
  absl::PrintF("  standard bloom   %.6g\n",
               sstfilter::StandardBloomFpRate(
                   static_cast<double>(n),
                   sstfilter::LevelDbReachableBits(static_cast<double>(filter_bits)), k));
  absl::PrintF("  32-bit hash      %.6g\n",
               sstfilter::Hash32CollisionRate(static_cast<double>(n)));
  return 0;
}

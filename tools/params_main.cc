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
#include "filter/bloom_math.h"
#include "filter/bloom_options.h"
#include "filter/encodings.h"
#include "tools/flags_usage.h"

ABSL_FLAG(int64_t, keys, 0, "number of keys the filter will hold (> 0)");
ABSL_FLAG(std::optional<double>, fp, std::nullopt,
          "target false-positive rate, 0 < fp < 1");
ABSL_FLAG(std::optional<double>, bits_per_key, std::nullopt,
          "bits of filter per key, in (0, 100]");
ABSL_FLAG(std::string, format, std::string(sstfilter::FormatName(sstfilter::kDefaultFormat)),
          "filter encoding: " + sstfilter::FormatNameList());

namespace {

int Fail(const std::string& msg) {
  absl::FPrintF(stderr, "sstfilter_params: %s\n", msg);
  return 2;
}

void PrintPlan(sstfilter::FilterFormat format, int64_t keys, std::optional<double> fp,
               double bits_per_key) {
  const auto n = static_cast<size_t>(keys);
  const sstfilter::FilterPlan plan = sstfilter::VisitEncoding(format, [&](auto encoding) {
    return sstfilter::PlanFilter<decltype(encoding)>(n, bits_per_key);
  });
  absl::PrintF("%-18s %s\n", "encoding", sstfilter::FormatName(format));
  absl::PrintF("%-18s %d\n", "keys", keys);
  if (fp.has_value()) absl::PrintF("%-18s %.6g\n", "target fp rate", *fp);
  absl::PrintF("%-18s %.4f\n", "bits/key", bits_per_key);
  absl::PrintF("%-18s %d\n", "k (probes)", plan.num_probes);
  for (const auto& [label, value] : plan.details.layout) absl::PrintF("%-18s %s\n", label, value);
  absl::PrintF("%-18s %d\n", "filter bytes", plan.filter_bytes);
  absl::PrintF("%-18s %.6g\n", "expected fp rate", plan.expected_fp_rate);
  for (const auto& [label, value] : plan.details.fp_parts) {
    absl::PrintF("%-18s %s\n", label, value);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::string usage =
      "Bloom filter sizing.\n"
      "  sstfilter_params --keys N (--fp P | --bits_per_key B) [--format F]\n"
      "F is " + sstfilter::FormatNameList() + ".";
  sstfilter::SetToolUsage("tools/params_main.cc", usage.c_str());
  std::vector<char*> rest = absl::ParseCommandLine(argc, argv);
  if (rest.size() > 1) {
    return Fail(absl::StrFormat("unexpected argument '%s'", rest[1]));
  }
  const int64_t keys = absl::GetFlag(FLAGS_keys);
  if (keys <= 0 || static_cast<uint64_t>(keys) > sstfilter::kMaxFilterEntries) {
    return Fail(absl::StrFormat("--keys=%d: need a key count in [1, %d]", keys,
                                sstfilter::kMaxFilterEntries));
  }
  const auto fp = absl::GetFlag(FLAGS_fp);
  const auto bits = absl::GetFlag(FLAGS_bits_per_key);
  if (fp.has_value() == bits.has_value()) {
    return Fail("give exactly one of --fp and --bits_per_key");
  }
  sstfilter::BloomOptions options;
  options.fp_rate = fp;
  if (bits.has_value()) options.bits_per_key = *bits;
  absl::StatusOr<double> bits_per_key = sstfilter::ResolveBitsPerKey(options);
  if (!bits_per_key.ok()) return Fail(std::string(bits_per_key.status().message()));
  absl::StatusOr<sstfilter::FilterFormat> format =
      sstfilter::ParseFormatValue(absl::GetFlag(FLAGS_format));
  if (!format.ok()) return Fail(std::string(format.status().message()));
  PrintPlan(*format, keys, fp, *bits_per_key);
  return 0;
}

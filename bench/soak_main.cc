// sstfilter_soak: a long run of filter checks, not a test of one case.
// Builds filters of random keys (4..64 bytes) in every encoding, with every
// SIMD level this CPU runs, and queries them on both paths (MayMatch and
// MayMatchBatch), for filters of --min_keys to --max_keys keys (by 10x).
// --checks present-key checks are spread evenly over the configurations;
// each is one filter answering for a key it was built from.
//
// Prints one row per configuration (false negatives, FP rate measured on
// absent keys vs the encoding's model, present-key checks per second in the
// query calls alone), a summary per format/level/path, and the totals.
// Exit status: 0 when there was no false negative and no FP rate far above
// its model (SoakResult::FpFarAboveModel); 1 otherwise; 2 for bad flags.
//
//   sstfilter_soak --checks=1000000000 [--min_keys=1000 --max_keys=10000000]
//       [--encodings=leveldb,cache_local] [--bits_per_key=10] [--absent_ratio=0.25]
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "bench/soak.h"
#include "filter/filter_options.h"
#include "filter/encoding_id.h"
#include "tools/flags_usage.h"

ABSL_FLAG(uint64_t, checks, 10000000, "Present-key checks in all (spread over configurations)");
ABSL_FLAG(uint64_t, min_keys, 1000, "Smallest filter, in keys");
ABSL_FLAG(uint64_t, max_keys, 10000000, "Largest filter, in keys (sizes go up by 10x)");
ABSL_FLAG(std::string, encodings, "all", "Encodings to soak: all, or a list such as leveldb,cache_local");
ABSL_FLAG(std::string, bits_per_key, "10", "Bits per key of every filter");
ABSL_FLAG(double, absent_ratio, 0.25, "Absent keys asked per present-key check (FP rate)");
ABSL_FLAG(uint64_t, seed, 1, "Seed of the key streams");

namespace sstfilter::bench {
namespace {

constexpr int kExitFailed = 1;
constexpr int kExitBadFlags = 2;

int BadFlags(const absl::Status& status) {
  absl::FPrintF(stderr, "sstfilter_soak: %s\n", status.message());
  return kExitBadFlags;
}

absl::StatusOr<std::vector<EncodingId>> ParseFormats(const std::string& text) {
  if (text == "all") return AllEncodingIds();
  std::vector<EncodingId> encodings;
  for (absl::string_view name : absl::StrSplit(text, ',')) {
    absl::StatusOr<EncodingId> encoding = ParseEncodingValue(std::string_view(name.data(), name.size()));
    if (!encoding.ok()) return encoding.status();
    encodings.push_back(*encoding);
  }
  return encodings;
}

double PerSecond(uint64_t count, double seconds) {
  return seconds > 0 ? static_cast<double>(count) / seconds : 0.0;
}

void PrintRow(const SoakConfig& c, const SoakResult& r) {
  absl::PrintF("%-11s %-6s %-6s %9d %8d %11d %6d %10.5f%% %9.5f%% %6.3f %9.2f%s\n",
               EncodingName(c.encoding), c.SimdName(), c.PathName(), c.num_keys, r.filters, r.checks,
               r.false_negatives, 100 * r.FpRate(), 100 * r.fp_model,
               r.fp_model > 0 ? r.FpRate() / r.fp_model : 0.0,
               PerSecond(r.checks, r.check_seconds) / 1e6,
               r.false_negatives > 0 ? "  FALSE NEGATIVES" : r.FpFarAboveModel() ? "  FP FAR ABOVE MODEL" : "");
  std::fflush(stdout);
}

struct PathTotals {
  uint64_t checks = 0, false_negatives = 0;
  double seconds = 0;
};

int Run() {
  absl::StatusOr<std::vector<EncodingId>> encodings = ParseFormats(absl::GetFlag(FLAGS_encodings));
  if (!encodings.ok()) return BadFlags(encodings.status());
  absl::StatusOr<double> bits = ParseBitsPerKeyValue(absl::GetFlag(FLAGS_bits_per_key));
  if (!bits.ok()) return BadFlags(bits.status());
  const double absent_ratio = absl::GetFlag(FLAGS_absent_ratio);
  if (!(absent_ratio >= 0 && absent_ratio <= 100)) {
    return BadFlags(absl::InvalidArgumentError(
        absl::StrFormat("--absent_ratio=%g is not in [0, 100]", absent_ratio)));
  }
  absl::StatusOr<std::vector<SoakConfig>> plan =
      PlanSoak(*encodings, absl::GetFlag(FLAGS_min_keys), absl::GetFlag(FLAGS_max_keys),
               absl::GetFlag(FLAGS_checks), absl::GetFlag(FLAGS_seed));
  if (!plan.ok()) return BadFlags(plan.status());

  absl::PrintF("%-11s %-6s %-6s %9s %8s %11s %6s %11s %10s %6s %9s\n", "format", "simd", "path",
               "keys", "filters", "checks", "fneg", "fp", "fp_model", "ratio", "Mcheck/s");
  const auto start = std::chrono::steady_clock::now();
  std::map<std::tuple<std::string, std::string, std::string>, PathTotals> by_path;
  uint64_t checks = 0, false_negatives = 0, fp_far_above_model = 0;
  for (const SoakConfig& config : *plan) {
    absl::StatusOr<SoakResult> result = RunSoakConfig(config, *bits, absent_ratio);
    if (!result.ok()) {
      absl::FPrintF(stderr, "sstfilter_soak: %s\n", result.status().message());
      return kExitFailed;
    }
    PrintRow(config, *result);
    PathTotals& totals =
        by_path[{std::string(EncodingName(config.encoding)), config.SimdName(), config.PathName()}];
    totals.checks += result->checks;
    totals.false_negatives += result->false_negatives;
    totals.seconds += result->check_seconds;
    checks += result->checks;
    false_negatives += result->false_negatives;
    fp_far_above_model += result->FpFarAboveModel() ? 1 : 0;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  absl::PrintF("\n%-11s %-6s %-6s %13s %6s %9s\n", "format", "simd", "path", "checks", "fneg",
               "Mcheck/s");
  for (const auto& [key, totals] : by_path) {
    absl::PrintF("%-11s %-6s %-6s %13d %6d %9.2f\n", std::get<0>(key), std::get<1>(key),
                 std::get<2>(key), totals.checks, totals.false_negatives,
                 PerSecond(totals.checks, totals.seconds) / 1e6);
  }
  absl::PrintF("\nfalse negatives: %d of %d checks\n", false_negatives, checks);
  absl::PrintF("configurations with FP far above model (> %gx + 6 sigma): %d of %d\n", kFpToleratedFactor,
               fp_far_above_model, plan->size());
  absl::PrintF("time: %.1f s (building, key generation and all queries)\n", seconds);
  return false_negatives == 0 && fp_far_above_model == 0 ? 0 : kExitFailed;
}

}  // namespace
}  // namespace sstfilter::bench

int main(int argc, char** argv) {
  sstfilter::SetToolUsage("bench/soak", "Filter soak: false negatives, FP rate and throughput "
                                        "over formats, SIMD levels and query paths.");
  absl::ParseCommandLine(argc, argv);
  return sstfilter::bench::Run();
}

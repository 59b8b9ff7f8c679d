// sstfilter_fp_report: measured false-positive rate of every filter implementation
// (filter_impls.h) next to each implementation's own model, over key shapes, key
// counts and bits/key, and the bits/key each filter actually spends (filter
// bytes * 8 / n; fp_report_views.h). Writes a table to stdout and, into
// --out_dir,
//   fp_rates.csv     one row per (shape, n, bits/key, implementation)
//   fp_vs_n.png      FP vs n at --plot_bits, one panel per shape
//   fp_vs_bits.png   FP vs configured bits/key at the largest n, one panel per shape
//   fp_vs_spent.png  FP vs bits/key spent at the largest n, one panel per shape
//   fp_targets.csv   each encoding of ours sized for an FP target (fp_rate),
//                    measured (fp_targets.h), up to --fp_target_max_n keys
// (with the gnuplot scripts beside them). Progress goes to stderr.
//
//   sstfilter_fp_report --out_dir=bench-results [--max_n=10000000]
//       [--shapes=random16,le64,be64,user,url] [--filters=all]
//       [--bits=6,8,10,16,20] [--target_fps=400] [--max_queries=2000000]
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "bench/filter_impls.h"
#include "bench/fp_measure.h"
#include "bench/fp_plot.h"
#include "bench/fp_report_views.h"
#include "bench/fp_targets.h"
#include "bench/key_shapes.h"
#include "filter/encodings.h"
#include "tools/flags_usage.h"

ABSL_FLAG(std::string, out_dir, "", "Directory for fp_rates.csv and the plots (created)");
ABSL_FLAG(std::string, shapes, "all", "Key shapes: random16,le64,be64,user,url or all");
ABSL_FLAG(std::string, filters, "all", "Filter impls (see sstfilter_micro_bench) or all");
ABSL_FLAG(std::vector<std::string>, bits, std::vector<std::string>({"6", "8", "10", "16", "20"}),
          "Bits per key to measure");
ABSL_FLAG(int64_t, min_n, 1000, "Smallest key count (then x10 up to --max_n)");
ABSL_FLAG(int64_t, max_n, 10000000, "Largest key count");
ABSL_FLAG(int64_t, target_fps, 400,
          "Absent queries aim for this many false positives (~5% relative error)");
ABSL_FLAG(int64_t, min_queries, 100000, "Fewest absent keys asked per filter");
ABSL_FLAG(int64_t, max_queries, 2000000, "Most absent keys asked per filter");
ABSL_FLAG(int64_t, present_checks, 100000, "Present keys checked per filter (no false negatives)");
ABSL_FLAG(double, plot_bits, 10, "Bits/key of the FP-vs-n plot and the spent-bits summary");
ABSL_FLAG(std::vector<std::string>, fp_targets, std::vector<std::string>({"0.01", "0.001"}),
          "FP rates each encoding of ours is sized for by its own model (fp_rate), then "
          "measured; empty: none");
ABSL_FLAG(int64_t, fp_target_max_n, 1000000, "Largest key count of the FP-target cases");

namespace sstfilter::bench {
namespace {

using Row = FpRow;

// Our FP target for an encoding other than the LevelDB-compatible one: no
// worse than RocksDB's FastLocalBloom at the same bits/key, within
// measurement error. Per case,
// z = (ours - theirs) / the standard error of that difference (two binomial
// samples of absent keys); over ~25 cases a largest z up to about 2.3 is
// chance. One line per bits/key. z counts query sampling only: a single small
// filter (n = 1e3, 40 lines) also varies with how its keys fell into lines.
void PrintVersusFastLocalBloom(const std::vector<Row>& rows, const std::string& ours_name) {
  std::map<double, std::vector<std::pair<const Row*, const Row*>>> by_bits;
  for (const Row& ours : rows) {
    if (ours.impl != ours_name) continue;
    for (const Row& peer : rows) {
      if (peer.impl == kFastLocalBloomImpl && peer.shape == ours.shape && peer.n == ours.n &&
          peer.bits == ours.bits && peer.m.false_positives > 0) {
        by_bits[ours.bits].push_back({&ours, &peer});
      }
    }
  }
  for (const auto& [bits, pairs] : by_bits) {
    double worst_z = -1e9, min_ratio = 1e9, max_ratio = 0;
    std::string worst_case;
    for (const auto& [ours, peer] : pairs) {
      const double a = ours->m.fp_rate(), b = peer->m.fp_rate();
      const double se =
          std::sqrt(a * (1 - a) / ours->m.queries + b * (1 - b) / peer->m.queries);
      const double z = se > 0 ? (a - b) / se : 0;
      min_ratio = std::min(min_ratio, a / b);
      max_ratio = std::max(max_ratio, a / b);
      if (z > worst_z) {
        worst_z = z;
        worst_case = absl::StrFormat("%s n=%d", KeyShapeName(ours->shape), ours->n);
      }
    }
    std::printf("%s / %s FP at %g bits/key over %zu cases: ratio "
                "%.2f..%.2f, largest excess z %+.2f (%s)\n",
                ours_name.c_str(), kFastLocalBloomImpl, bits, pairs.size(), min_ratio,
                max_ratio, worst_z, worst_case.c_str());
  }
}

int Fail(const std::string& message) {
  std::fprintf(stderr, "sstfilter_fp_report: %s\n", message.c_str());
  return 2;
}

std::string Percent(double rate) { return absl::StrFormat("%.3g", rate * 100); }

void WriteCsv(const std::vector<Row>& rows, std::ofstream& csv) {
  // bits_per_key is the configured setting; spent_bits_per_key = filter_bytes * 8 / n.
  csv << "shape,n,bits_per_key,filter,filter_bytes,spent_bits_per_key,queries,false_positives,"
         "fp_rate,expected_fp_rate,measured_over_expected,present_checked,false_negatives\n";
  for (const Row& r : rows) {
    csv << absl::StrFormat("%s,%d,%g,%s,%d,%.4f,%d,%d,%.6g,%.6g,%.4f,%d,%d\n",
                           KeyShapeName(r.shape), r.n, r.bits, r.impl, r.m.filter_bytes,
                           r.m.spent_bits_per_key(),
                           r.m.queries, r.m.false_positives, r.m.fp_rate(),
                           r.m.expected_fp_rate,
                           r.m.expected_fp_rate > 0 ? r.m.fp_rate() / r.m.expected_fp_rate : 0,
                           r.m.present_checked, r.m.false_negatives);
  }
}

// The flags, checked.
struct Settings {
  std::string out_dir;
  std::vector<KeyShape> shapes;
  std::vector<FilterImpl> impls;
  std::vector<double> bits;
  std::vector<size_t> ns;  // --min_n, x10 while <= --max_n.
  size_t target_fps, min_queries, max_queries, present_checks;
  FpTargetSettings targets;  // Its ns: those of ns up to --fp_target_max_n.
};

// The error names the bad flag and value.
absl::StatusOr<Settings> ReadFlags() {
  Settings s;
  s.out_dir = absl::GetFlag(FLAGS_out_dir);
  if (s.out_dir.empty()) return absl::InvalidArgumentError("--out_dir is required");
  absl::StatusOr<std::vector<KeyShape>> shapes = ParseKeyShapes(absl::GetFlag(FLAGS_shapes));
  if (!shapes.ok()) return shapes.status();
  s.shapes = *std::move(shapes);
  absl::StatusOr<std::vector<FilterImpl>> impls = SelectFilterImpls(absl::GetFlag(FLAGS_filters));
  if (!impls.ok()) return impls.status();
  s.impls = *std::move(impls);
  for (const std::string& b : absl::GetFlag(FLAGS_bits)) {
    double v;
    if (!absl::SimpleAtod(b, &v) || !(v >= 1 && v <= 100)) {
      return absl::InvalidArgumentError("--bits: '" + b +
                                        "' is not a number of bits per key in [1, 100]");
    }
    s.bits.push_back(v);
  }
  const int64_t min_n = absl::GetFlag(FLAGS_min_n), max_n = absl::GetFlag(FLAGS_max_n);
  if (min_n < 1 || max_n < min_n || max_n > 100000000) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "--min_n=%d / --max_n=%d: need 1 <= min_n <= max_n <= 1e8", min_n, max_n));
  }
  const int64_t target_fps = absl::GetFlag(FLAGS_target_fps);
  const int64_t min_q = absl::GetFlag(FLAGS_min_queries), max_q = absl::GetFlag(FLAGS_max_queries);
  if (target_fps < 1 || min_q < 1 || max_q < min_q) {
    return absl::InvalidArgumentError(
        "need --target_fps >= 1 and 1 <= --min_queries <= --max_queries");
  }
  for (int64_t n = min_n; n <= max_n; n *= 10) s.ns.push_back(static_cast<size_t>(n));
  s.target_fps = static_cast<size_t>(target_fps);
  s.min_queries = static_cast<size_t>(min_q);
  s.max_queries = static_cast<size_t>(max_q);
  s.present_checks = static_cast<size_t>(absl::GetFlag(FLAGS_present_checks));
  for (const std::string& t : absl::GetFlag(FLAGS_fp_targets)) {
    double v;
    if (!absl::SimpleAtod(t, &v) || !(v > 0 && v < 1)) {
      return absl::InvalidArgumentError("--fp_targets: '" + t + "' is not an FP rate in (0, 1)");
    }
    s.targets.targets.push_back(v);
  }
  s.targets.shapes = s.shapes;
  for (size_t n : s.ns) {
    if (static_cast<int64_t>(n) <= absl::GetFlag(FLAGS_fp_target_max_n)) s.targets.ns.push_back(n);
  }
  s.targets.target_fps = s.target_fps;
  s.targets.min_queries = s.min_queries;
  s.targets.max_queries = s.max_queries;
  s.targets.present_checks = s.present_checks;
  return s;
}

// Seconds since the report started, for progress lines.
class Stopwatch {
 public:
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// Every (shape, n, bits/key, implementation), streaming the table to stdout as rows
// complete.
std::vector<Row> MeasureAll(const Settings& s, const Stopwatch& clock) {
  // FP rates do not depend on the CPU; the line says where the report ran.
  std::printf("%s\n", MachineLine().c_str());
  std::printf("FP rate in %% per filter impl: measured (model), then bits/key spent (filter "
              "bytes x 8 / n; 'bits' is the configured setting); absent keys are the next "
              "keys of the same shape\n%-9s %9s %5s", "shape", "n", "bits");
  for (const FilterImpl& k : s.impls) std::printf(" %28s", k.name.c_str());
  std::printf("\n");
  std::vector<Row> rows;
  for (KeyShape shape : s.shapes) {
    const KeySet present(shape, 0, s.ns.back());
    for (size_t n : s.ns) {
      // Absent keys: the max_queries keys after the n present ones.
      const KeySet absent(shape, n, s.max_queries);
      for (double b : s.bits) {
        std::printf("%-9s %9zu %5g", std::string(KeyShapeName(shape)).c_str(), n, b);
        for (const FilterImpl& impl : s.impls) {
          FpMeasurement m =
              MeasureFp(impl, b, absl::MakeConstSpan(present.keys()).first(n), absent.keys(),
                        s.target_fps, s.min_queries, s.present_checks);
          std::printf(" %28s", absl::StrFormat("%s (%s) %.2f%s", Percent(m.fp_rate()),
                                               Percent(m.expected_fp_rate),
                                               m.spent_bits_per_key(),
                                               m.false_negatives ? " FN!" : "").c_str());
          rows.push_back({shape, n, b, impl.name, m});
        }
        std::printf("\n");
        std::fflush(stdout);
      }
      std::fprintf(stderr, "[fp] %s n=%zu done at %.1f s\n",
                   std::string(KeyShapeName(shape)).c_str(), n, clock.seconds());
    }
  }
  return rows;
}

// Cross-checks: no false negatives; our LevelDB-compatible encoding and
// libleveldb build the same bits for integral bits/key, so they must count
// the same FPs. Returns the number of false negatives.
size_t PrintCrossChecks(const std::vector<Row>& rows, const std::vector<FilterImpl>& impls) {
  const std::string leveldb_compatible = OurImplName(EncodingName(EncodingId::kLevelDb));
  size_t false_negatives = 0, pairs = 0, equal_pairs = 0;
  std::map<std::string, double> worst;  // impl -> max measured/model.
  for (size_t i = 0; i < rows.size(); ++i) {
    false_negatives += rows[i].m.false_negatives;
    if (rows[i].m.expected_fp_rate > 0) {
      worst[rows[i].impl] = std::max(worst[rows[i].impl],
                                     rows[i].m.fp_rate() / rows[i].m.expected_fp_rate);
    }
    for (size_t j = i + 1; j < rows.size() && rows[j].n == rows[i].n &&
                           rows[j].bits == rows[i].bits && rows[j].shape == rows[i].shape;
         ++j) {
      if (rows[i].impl == leveldb_compatible && rows[j].impl == "libleveldb" &&
          rows[i].bits == std::floor(rows[i].bits)) {
        ++pairs;
        equal_pairs += rows[i].m.false_positives == rows[j].m.false_positives &&
                       rows[i].m.queries == rows[j].m.queries;
      }
    }
  }
  std::printf("\nfalse negatives: %zu (must be 0)\n", false_negatives);
  if (pairs) {
    std::printf("%s and libleveldb counted the same false positives in %zu of %zu cases\n",
                leveldb_compatible.c_str(), equal_pairs, pairs);
  }
  std::printf("worst measured/model ratio per impl:");
  for (const FilterImpl& k : impls) std::printf(" %s %.2f", k.name.c_str(), worst[k.name]);
  std::printf("\n");
  const std::vector<std::string> ours = OurImplNames();
  for (size_t i = 1; i < ours.size(); ++i) PrintVersusFastLocalBloom(rows, ours[i]);
  return false_negatives;
}

// fp_rates.csv and the three plots into --out_dir.
absl::Status WriteResults(const std::vector<Row>& rows, const Settings& s) {
  const std::string csv_path = s.out_dir + "/fp_rates.csv";
  std::ofstream csv(csv_path);
  WriteCsv(rows, csv);
  if (!csv) return absl::UnavailableError("cannot write " + csv_path);
  std::printf("wrote %s\n", csv_path.c_str());

  const double plot_bits = absl::GetFlag(FLAGS_plot_bits);
  for (const auto& [axis, name] : {std::pair{FpAxis::kKeys, "fp_vs_n"},
                                   std::pair{FpAxis::kConfiguredBits, "fp_vs_bits"},
                                   std::pair{FpAxis::kSpentBits, "fp_vs_spent"}}) {
    const std::string stem = s.out_dir + "/" + name;
    absl::Status status = RenderFpPlot(
        MakeFpPlot(rows, s.shapes, s.impls, axis, plot_bits, s.ns.back()), stem);
    if (!status.ok()) return status;
    std::printf("wrote %s.png (script %s.gp)\n", stem.c_str(), stem.c_str());
  }
  return absl::OkStatus();
}

// Exit status: 0, 1 when an implementation had a false negative, 2 on bad flags or
// unwritable output.
int Run() {
  absl::StatusOr<Settings> settings = ReadFlags();
  if (!settings.ok()) return Fail(std::string(settings.status().message()));
  const std::string& out_dir = settings->out_dir;
  if (mkdir(out_dir.c_str(), 0755) != 0 && errno != EEXIST) {
    return Fail("cannot create --out_dir=" + out_dir);
  }
  const Stopwatch clock;
  const std::vector<Row> rows = MeasureAll(*settings, clock);
  const size_t false_negatives = PrintCrossChecks(rows, settings->impls);
  std::fputs(SpentBitsSummary(rows, settings->impls, absl::GetFlag(FLAGS_plot_bits),
                              settings->ns).c_str(), stdout);
  if (absl::Status s = WriteResults(rows, *settings); !s.ok()) {
    return Fail(std::string(s.message()));
  }
  if (!settings->targets.targets.empty() && !settings->targets.ns.empty()) {
    const std::vector<FpTargetRow> targets = MeasureFpTargets(settings->targets);
    std::fputs(FpTargetSummary(targets).c_str(), stdout);
    const std::string path = out_dir + "/fp_targets.csv";
    std::ofstream csv(path);
    csv << FpTargetCsv(targets);
    if (!csv) return Fail("cannot write " + path);
    std::printf("wrote %s\n", path.c_str());
    for (const FpTargetRow& r : targets) {
      if (r.m.false_negatives > 0) return 1;
    }
  }
  std::fprintf(stderr, "[fp] finished in %.1f s\n", clock.seconds());
  return false_negatives == 0 ? 0 : 1;
}

}  // namespace
}  // namespace sstfilter::bench

int main(int argc, char** argv) {
  sstfilter::SetToolUsage(
      "bench/fp_report_main.cc",
      "Measured FP rate of every filter impl vs its model; see the file comment.");
  absl::ParseCommandLine(argc, argv);
  return sstfilter::bench::Run();
}

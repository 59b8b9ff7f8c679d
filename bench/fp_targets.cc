#include "bench/fp_targets.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <utility>

#include "absl/strings/str_format.h"
#include "bench/filter_impls.h"
#include "filter/encodings.h"
#include "filter/fp_target.h"

namespace sstfilter::bench {

namespace {

const FilterImpl& ImplOf(const std::string& name) {
  for (const FilterImpl& impl : AllFilterImpls()) {
    if (impl.name == name) return impl;
  }
  std::abort();  // Every encoding has an impl (filter_impls.cc).
}

// How far the measured rate lies above the target, in standard errors of
// the measurement (binomial over its queries).
double ExcessZ(const FpTargetRow& r) {
  const double se = std::sqrt(r.target * (1 - r.target) / static_cast<double>(r.m.queries));
  return se > 0 ? (r.m.fp_rate() - r.target) / se : 0;
}

}  // namespace

std::vector<FpTargetRow> MeasureFpTargets(const FpTargetSettings& s) {
  std::printf("\nFP targets: each encoding sized by its own model for the target "
              "(BitsPerKeyForFp), FP measured in %%, then the setting it gave\n%-9s %9s %7s",
              "shape", "n", "target");
  for (EncodingId e : AllEncodingIds()) std::printf(" %22s", OurImplName(EncodingName(e)).c_str());
  std::printf("\n");
  std::vector<FpTargetRow> rows;
  for (KeyShape shape : s.shapes) {
    const KeySet present(shape, 0, s.ns.back());
    for (size_t n : s.ns) {
      const KeySet absent(shape, n, s.max_queries);
      for (double target : s.targets) {
        std::printf("%-9s %9zu %6g%%", std::string(KeyShapeName(shape)).c_str(), n, target * 100);
        for (EncodingId e : AllEncodingIds()) {
          FpTargetRow row{shape, n, target, OurImplName(EncodingName(e)),
                          BitsPerKeyForFp(e, n, target), {}};
          row.m = MeasureFp(ImplOf(row.impl), row.bits,
                            absl::MakeConstSpan(present.keys()).first(n), absent.keys(),
                            s.target_fps, s.min_queries, s.present_checks);
          std::printf(" %22s", absl::StrFormat("%.3g (%.2f)", row.m.fp_rate() * 100, row.bits).c_str());
          rows.push_back(std::move(row));
        }
        std::printf("\n");
        std::fflush(stdout);
      }
    }
  }
  return rows;
}

std::string FpTargetSummary(const std::vector<FpTargetRow>& rows) {
  struct Span {
    double low = 1e9, high = 0;
    size_t cases = 0, above = 0;
    std::string worst;
    double worst_z = -1e9;
  };
  std::map<std::pair<std::string, double>, Span> spans;
  for (const FpTargetRow& r : rows) {
    Span& s = spans[{r.impl, r.target}];
    const double ratio = r.m.fp_rate() / r.target;
    s.low = std::min(s.low, ratio);
    s.high = std::max(s.high, ratio);
    ++s.cases;
    const double z = ExcessZ(r);
    s.above += z > 3 ? 1 : 0;
    if (z > s.worst_z) {
      s.worst_z = z;
      s.worst = absl::StrFormat("%s n=%d", KeyShapeName(r.shape), r.n);
    }
  }
  std::string out;
  for (const auto& [key, s] : spans) {
    absl::StrAppendFormat(&out,
                          "%s at a %g%% target over %d cases: measured/target %.2f..%.2f, "
                          "%d above it beyond sampling error (largest z %+.2f, %s)\n",
                          key.first, key.second * 100, s.cases, s.low, s.high, s.above,
                          s.worst_z, s.worst);
  }
  return out;
}

std::string FpTargetCsv(const std::vector<FpTargetRow>& rows) {
  std::string csv =
      "shape,n,target_fp_rate,filter,bits_per_key,spent_bits_per_key,queries,false_positives,"
      "fp_rate,measured_over_target,false_negatives\n";
  for (const FpTargetRow& r : rows) {
    absl::StrAppendFormat(&csv, "%s,%d,%g,%s,%.4f,%.4f,%d,%d,%.6g,%.4f,%d\n",
                          KeyShapeName(r.shape), r.n, r.target, r.impl, r.bits,
                          r.m.spent_bits_per_key(), r.m.queries, r.m.false_positives,
                          r.m.fp_rate(), r.m.fp_rate() / r.target, r.m.false_negatives);
  }
  return csv;
}

}  // namespace sstfilter::bench

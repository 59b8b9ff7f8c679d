#include "bench/fp_report_views.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_format.h"

namespace sstfilter::bench {
namespace {

std::string XLabel(FpAxis axis) {
  switch (axis) {
    case FpAxis::kKeys: return "keys in the filter (n)";
    case FpAxis::kConfiguredBits: return "bits per key (configured)";
    case FpAxis::kSpentBits: return "bits per key spent (filter bytes x 8 / n)";
  }
  return "";
}

std::string Title(FpAxis axis, double bits, size_t n) {
  switch (axis) {
    case FpAxis::kKeys:
      return absl::StrFormat("False-positive rate vs n at %g bits/key "
                             "(points: measured; dashed: model)", bits);
    case FpAxis::kConfiguredBits:
      return absl::StrFormat("False-positive rate vs bits/key at n = %d "
                             "(points: measured; dashed: model)", n);
    case FpAxis::kSpentBits:
      return absl::StrFormat("False-positive rate vs bits/key spent at n = %d, each kind at "
                             "its real memory (points: measured; dashed: model)", n);
  }
  return "";
}

// The row's x on the axis, or NaN when the row is not on this plot.
double XOf(const FpRow& r, FpAxis axis, double bits, size_t n) {
  switch (axis) {
    case FpAxis::kKeys: return r.bits == bits ? double(r.n) : NAN;
    case FpAxis::kConfiguredBits: return r.n == n ? r.bits : NAN;
    case FpAxis::kSpentBits: return r.n == n ? r.m.spent_bits_per_key() : NAN;
  }
  return NAN;
}

}  // namespace

FpPlot MakeFpPlot(const std::vector<FpRow>& rows, const std::vector<KeyShape>& shapes,
                  const std::vector<FilterImpl>& impls, FpAxis axis, double bits, size_t n) {
  FpPlot plot;
  plot.log_x = axis == FpAxis::kKeys;
  plot.draw_lower_bound = axis == FpAxis::kSpentBits;
  plot.x_label = XLabel(axis);
  plot.title = Title(axis, bits, n);
  for (KeyShape shape : shapes) {
    FpPanel panel;
    panel.title = absl::StrFormat("keys: %s", KeyShapeName(shape));
    for (const FilterImpl& impl : impls) {
      FpSeries series{impl.description, {}};
      for (const FpRow& r : rows) {
        const double x = XOf(r, axis, bits, n);
        if (r.shape != shape || r.impl != impl.name || std::isnan(x)) continue;
        series.points.push_back({x, r.m.fp_rate(), r.m.expected_fp_rate});
      }
      // Spent bits need not grow in step with the configured ones.
      std::sort(series.points.begin(), series.points.end(),
                [](const FpPoint& a, const FpPoint& b) { return a.x < b.x; });
      if (!series.points.empty()) panel.series.push_back(std::move(series));
    }
    plot.panels.push_back(std::move(panel));
  }
  return plot;
}

std::string SpentBitsSummary(const std::vector<FpRow>& rows,
                             const std::vector<FilterImpl>& impls, double bits,
                             const std::vector<size_t>& ns) {
  std::string out = absl::StrFormat(
      "\nbits/key spent (filter bytes x 8 / n) at %g bits/key configured\n%9s", bits, "n");
  for (const FilterImpl& impl : impls) absl::StrAppendFormat(&out, " %16s", impl.name);
  out += "\n";
  for (size_t n : ns) {
    absl::StrAppendFormat(&out, "%9d", n);
    for (const FilterImpl& impl : impls) {
      double lo = INFINITY, hi = -INFINITY;
      for (const FpRow& r : rows) {
        if (r.n != n || r.bits != bits || r.impl != impl.name) continue;
        lo = std::min(lo, r.m.spent_bits_per_key());
        hi = std::max(hi, r.m.spent_bits_per_key());
      }
      const std::string cell = lo > hi                  ? "-"
                               : hi - lo < 0.005 ? absl::StrFormat("%.2f", lo)
                                                 : absl::StrFormat("%.2f..%.2f", lo, hi);
      absl::StrAppendFormat(&out, " %16s", cell);
    }
    out += "\n";
  }
  if (ns.empty()) return out;
  absl::StrAppendFormat(&out,
                        "at n=%d, %g bits/key configured, all shapes: FP %% / bits spent / "
                        "spent over log2(1/FP)\n",
                        ns.back(), bits);
  for (const FilterImpl& impl : impls) {
    size_t queries = 0, fps = 0, filters = 0;
    double spent = 0;
    for (const FpRow& r : rows) {
      if (r.n != ns.back() || r.bits != bits || r.impl != impl.name) continue;
      queries += r.m.queries;
      fps += r.m.false_positives;
      spent += r.m.spent_bits_per_key();
      ++filters;
    }
    if (filters == 0 || fps == 0) continue;
    const double fp = double(fps) / queries;
    spent /= filters;
    absl::StrAppendFormat(&out, "  %-16s %8.4f%% %7.2f %6.3fx\n", impl.name, fp * 100, spent,
                          spent / std::log2(1 / fp));
  }
  return out;
}

}  // namespace sstfilter::bench

#include "bench/db_bench/cache_sweep_plot.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "bench/gnuplot.h"

namespace sstfilter::db_bench {

namespace {

// The points of one kind of Gets, by policy (in the order they came) and
// cache fraction.
struct Panel {
  GetKind kind = GetKind::kAbsent;
  std::vector<std::string> policies;
  std::map<std::string, std::map<double, double>> reads;  // Policy -> fraction -> reads.
};

std::vector<Panel> PanelsOf(const std::vector<CachePoint>& points) {
  std::map<int, Panel> by_kind;
  for (const CachePoint& p : points) {
    Panel& panel = by_kind[static_cast<int>(p.kind)];
    panel.kind = p.kind;
    if (panel.reads.find(p.row) == panel.reads.end()) panel.policies.push_back(p.row);
    panel.reads[p.row][p.fraction] = p.reads();
  }
  std::vector<Panel> panels;
  for (auto& [kind, panel] : by_kind) panels.push_back(std::move(panel));
  return panels;
}

// Our cache_aware rows solid and thick, our other rows solid, RocksDB's
// built-ins dashed.
std::string Style(const std::string& policy, size_t i) {
  return bench::CurveStyle(i, policy.rfind("sstfilter.", 0) == 0,
                           policy.find("cache_aware") != std::string::npos);
}

// Datablock $k<kind>_<i>: cache fraction, device reads per Get.
std::string PanelScript(const Panel& panel) {
  std::string s;
  const int kind = static_cast<int>(panel.kind);
  for (size_t i = 0; i < panel.policies.size(); ++i) {
    absl::StrAppendFormat(&s, "$k%d_%d << EOD\n", kind, i);
    for (const auto& [fraction, reads] : panel.reads.at(panel.policies[i])) {
      absl::StrAppendFormat(&s, "%g %g\n", fraction, reads);
    }
    s += "EOD\n";
  }
  absl::StrAppendFormat(&s, "set title '%s Gets'\nplot ", GetKindName(panel.kind));
  for (size_t i = 0; i < panel.policies.size(); ++i) {
    absl::StrAppendFormat(&s, "%s$k%d_%d using 1:2 with linespoints %s title \"%s\"",
                          i ? ", " : "", kind, i, Style(panel.policies[i], i),
                          absl::StrReplaceAll(panel.policies[i], {{"\"", "'"}}));
  }
  return s + "\n";
}

// The range of the caches (`of_cache`) or of the reads above 0 (a log
// axis has no 0), widened by half on each side: a sweep of one point still
// gets an axis. Where no read is above 0 (everything cached), a fixed one:
// gnuplot refuses to autoscale a log axis with no point on it.
std::string RangeOf(const std::vector<Panel>& panels, bool of_cache) {
  double low = INFINITY, high = 0;
  for (const Panel& panel : panels) {
    for (const auto& [policy, by_fraction] : panel.reads) {
      for (const auto& [fraction, reads] : by_fraction) {
        const double v = of_cache ? fraction : reads;
        if (v > 0) low = std::min(low, v), high = std::max(high, v);
      }
    }
  }
  return high > 0 ? absl::StrFormat("[%g:%g]", low / 1.5, high * 1.5) : "[0.001:1]";
}

std::string Script(const std::vector<Panel>& panels, const std::string& title,
                   const std::string& png_name) {
  std::string s = bench::OutputBeside();
  absl::StrAppendFormat(
      &s,
      "set terminal pngcairo noenhanced size %d,650 font 'sans,11'\n"
      "set output script_dir.'%s'\n"
      "set multiplot layout 1,%d title \"%s\" font 'sans,13'\n"
      "set logscale xy\nset format x '%%g'\nset format y '%%g'\nset xrange %s\nset yrange %s\n"
      "set xlabel 'block cache / bloomfilter:10 filter bytes'\n"
      "set ylabel 'device reads per Get (filter + index + data)'\n"
      "set grid xtics ytics mytics lc rgb '#dddddd'\n"
      "set key outside bottom center vertical font 'sans,9' samplen 3\n",
      500 * static_cast<int>(panels.size()) + 100, png_name, static_cast<int>(panels.size()),
      absl::StrReplaceAll(title, {{"\"", "'"}}), RangeOf(panels, true), RangeOf(panels, false));
  for (const Panel& panel : panels) s += PanelScript(panel);
  return s + "unset multiplot\n";
}

}  // namespace

absl::Status RenderCacheSweepPlot(const std::vector<CachePoint>& points,
                                  const std::string& title, const std::string& path_stem) {
  const std::vector<Panel> panels = PanelsOf(points);
  if (panels.empty()) return absl::OkStatus();
  return bench::RunGnuplot(Script(panels, title, bench::PngNameOf(path_stem)), path_stem);
}

}  // namespace sstfilter::db_bench

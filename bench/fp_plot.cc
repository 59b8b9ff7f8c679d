#include "bench/fp_plot.h"

#include "absl/strings/str_format.h"
#include "bench/gnuplot.h"

namespace sstfilter::bench {
namespace {

// Fixed colours so a kind looks the same in every panel.
constexpr const char* kColours[] = {"#d62728", "#1f77b4", "#2ca02c", "#9467bd",
                                    "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};

// Datablocks $d_<panel>_<series>: x, measured and model FP in percent.
std::string DataBlocks(const FpPlot& plot) {
  std::string s;
  for (size_t p = 0; p < plot.panels.size(); ++p) {
    for (size_t i = 0; i < plot.panels[p].series.size(); ++i) {
      absl::StrAppendFormat(&s, "$d_%d_%d << EOD\n", p, i);
      for (const FpPoint& pt : plot.panels[p].series[i].points) {
        absl::StrAppendFormat(&s, "%g %g %g\n", pt.x, pt.measured * 100, pt.expected * 100);
      }
      s += "EOD\n";
    }
  }
  return s;
}

// Terminal, output, the multiplot grid and the axes every panel shares. One
// extra cell holds the legend, so no key hides any data.
std::string PageSetup(const FpPlot& plot, const std::string& png_name) {
  const size_t cells = plot.panels.size() + 1;
  const size_t cols = cells <= 3 ? cells : cells == 4 ? 2 : 3;
  const size_t rows = (cells + cols - 1) / cols;
  std::string s = absl::StrFormat(
      "set terminal pngcairo size %d,%d font 'sans,11'\n"
      "set output script_dir.'%s'\n"
      "set multiplot layout %d,%d title \"%s\" font 'sans,14'\n"
      "set logscale y\nset format y '%%g%%%%'\n"
      "set ylabel 'false-positive rate'\nset xlabel '%s'\n"
      "set grid xtics ytics mytics lc rgb '#dddddd'\nunset key\n",
      520 * cols, 420 * rows + 40, png_name, rows, cols, plot.title, plot.x_label);
  s += plot.log_x ? "set logscale x\nset format x '10^{%L}'\n"
                  : "unset logscale x\nset format x '%g'\n";
  return s;
}

// True when series i (> 0) measured exactly what series 0 did in every
// panel (libleveldb vs our bit-exact encoding).
bool SameAsReference(const FpPlot& plot, size_t i) {
  for (const FpPanel& panel : plot.panels) {
    if (i == 0 || i >= panel.series.size()) return false;
    const auto& a = panel.series[0].points;
    const auto& b = panel.series[i].points;
    if (a.size() != b.size()) return false;
    for (size_t j = 0; j < a.size(); ++j) {
      if (a[j].x != b[j].x || a[j].measured != b[j].measured) return false;
    }
  }
  return i > 0;
}

// Line and point style of series i. A series identical to the reference
// gets rings around the points instead of being hidden under them.
std::string SeriesStyle(const FpPlot& plot, size_t i) {
  return i == 0 ? absl::StrFormat("lc rgb '%s' lw 2 pt 7 ps 0.9", kColours[0])
         : SameAsReference(plot, i)
             ? absl::StrFormat("lc rgb '%s' lw 1 pt 6 ps 1.9", kColours[i % 8])
             : absl::StrFormat("lc rgb '%s' lw 1.5 pt %d ps 0.9", kColours[i % 8], i + 3);
}

// FP >= 2^-(bits per key) for any filter (percent, as the data blocks).
constexpr char kLowerBound[] = "100 * 2**(-x)";
constexpr char kLowerBoundStyle[] = "with lines dt 3 lw 1.5 lc rgb '#777777'";

// One panel's plot command. Series 0 (the reference) is drawn last so it
// stays visible, then its model dashed.
std::string PanelPlot(const FpPlot& plot, size_t p) {
  const FpPanel& panel = plot.panels[p];
  std::string s = absl::StrFormat("set title \"%s\"\nplot ", panel.title);
  const size_t n = panel.series.size();
  for (size_t j = 0; j < n; ++j) {
    const size_t i = (j + 1) % n;  // 1, 2, ..., n-1, then 0.
    absl::StrAppendFormat(&s, "%s$d_%d_%d using 1:2 with linespoints %s notitle",
                          j ? ", " : "", p, i, SeriesStyle(plot, i));
  }
  if (n > 0) {
    absl::StrAppendFormat(&s, ", $d_%d_0 using 1:3 with lines dt 2 lw 1.5 lc rgb 'black' notitle", p);
  }
  if (plot.draw_lower_bound) s += absl::StrFormat(", %s %s notitle", kLowerBound, kLowerBoundStyle);
  return s + "\n";
}

// The legend cell: an empty plot whose only content is the key, labelled
// from the first panel's series.
std::string LegendCell(const FpPlot& plot) {
  if (plot.panels.empty()) return "";
  const FpPanel& first = plot.panels.front();
  std::string s =
      "unset title\nunset xlabel\nunset ylabel\nunset border\nunset tics\nunset grid\n"
      "unset logscale\nset xrange [0:1]\nset yrange [0:1]\n"
      "set key center center font 'sans,12' spacing 1.4 samplen 4\nplot ";
  for (size_t i = 0; i < first.series.size(); ++i) {
    absl::StrAppendFormat(&s, "%sNaN with linespoints %s title \"%s\"", i ? ", " : "",
                          SeriesStyle(plot, i), first.series[i].label);
  }
  if (!first.series.empty()) {
    absl::StrAppendFormat(&s, ", NaN with lines dt 2 lw 1.5 lc rgb 'black' title \"model of %s\"",
                          first.series[0].label);
  }
  if (plot.draw_lower_bound) {
    absl::StrAppendFormat(&s, ", NaN %s title \"least possible: 2^{-bits spent}\"",
                          kLowerBoundStyle);
  }
  return s + "\n";
}

std::string Script(const FpPlot& plot, const std::string& png_name) {
  std::string s = OutputBeside() + DataBlocks(plot) + PageSetup(plot, png_name);
  for (size_t p = 0; p < plot.panels.size(); ++p) s += PanelPlot(plot, p);
  return s + LegendCell(plot) + "unset multiplot\n";
}

}  // namespace

absl::Status RenderFpPlot(const FpPlot& plot, const std::string& path_stem) {
  return RunGnuplot(Script(plot, PngNameOf(path_stem)), path_stem);
}

}  // namespace sstfilter::bench

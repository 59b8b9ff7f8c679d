#include "bench/db_bench/frontier_plot.h"

#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "bench/gnuplot.h"

namespace sstfilter::db_bench {

namespace {

// Datablock $f_<i>: bytes/key, reads per absent Get, setting.
std::string DataBlocks(const std::vector<FrontierCurve>& curves) {
  std::string s;
  for (size_t i = 0; i < curves.size(); ++i) {
    absl::StrAppendFormat(&s, "$f_%d << EOD\n", i);
    for (const FrontierPoint& p : curves[i].points) {
      absl::StrAppendFormat(&s, "%g %g %g\n", p.bytes_per_key, p.reads_per_op, p.setting);
    }
    s += "EOD\n";
  }
  return s;
}

// Our per-level curves are solid and thick, uniform ones thinner, RocksDB's
// built-ins dashed: the families a reader compares stand apart.
std::string Style(const FrontierCurve& curve, size_t i) {
  return bench::CurveStyle(i, curve.label.rfind("sstfilter.", 0) == 0,
                           curve.label.find("optimize_levels") != std::string::npos);
}

std::string Script(const std::vector<FrontierCurve>& curves, const std::string& title,
                   const std::string& png_name) {
  std::string s = bench::OutputBeside() + DataBlocks(curves);
  absl::StrAppendFormat(&s,
                        "set terminal pngcairo noenhanced size 1100,650 font 'sans,11'\n"
                        "set output script_dir.'%s'\n"
                        "set title \"%s\" font 'sans,13'\n"
                        "set logscale y\nset format y '%%g'\n"
                        "set xlabel 'filter bytes per key (all live tables)'\n"
                        "set ylabel 'data-block reads per absent-key Get'\n"
                        "set grid xtics ytics mytics lc rgb '#dddddd'\n"
                        "set key inside left bottom box opaque font 'sans,10' spacing 1.2 samplen 3\n"
                        "plot ",
                        png_name, absl::StrReplaceAll(title, {{"\"", "'"}}));
  for (size_t i = 0; i < curves.size(); ++i) {
    absl::StrAppendFormat(&s, "%s$f_%d using 1:2 with linespoints %s title \"%s\"", i ? ", " : "",
                          i, Style(curves[i], i), curves[i].label);
  }
  return s + "\n";
}

}  // namespace

absl::Status RenderFrontierPlot(const std::vector<FrontierCurve>& curves,
                                const std::string& title, const std::string& path_stem) {
  return bench::RunGnuplot(Script(curves, title, bench::PngNameOf(path_stem)), path_stem);
}

}  // namespace sstfilter::db_bench

// Renders FP-rate measurements as a PNG through gnuplot (Debian gnuplot-nox).
//
// The gnuplot script is written next to the image with the data inlined, so
// a reader can re-render or restyle it without rerunning the measurement.
// It names no absolute path: `gnuplot dir/x.gp`, run from any directory,
// writes dir/x.png.
#ifndef SSTFILTER_BENCH_FP_PLOT_H_
#define SSTFILTER_BENCH_FP_PLOT_H_

#include <string>
#include <vector>

#include "absl/status/status.h"

namespace sstfilter::bench {

struct FpPoint {
  double x;         // n, or configured or spent bits/key.
  double measured;  // FP rate, 0..1.
  double expected;  // The kind's own model.
};

// One line of one panel.
struct FpSeries {
  std::string label;
  std::vector<FpPoint> points;
};

// One panel per key shape.
struct FpPanel {
  std::string title;
  std::vector<FpSeries> series;  // Series 0 also gets its model drawn dashed.
};

struct FpPlot {
  std::string title;
  std::string x_label;
  bool log_x = false;
  // Also draws, dotted, the least FP any filter of x bits per key can have,
  // 2^-x (x must be bits/key spent).
  bool draw_lower_bound = false;
  std::vector<FpPanel> panels;
};

// Writes <path_stem>.gp and runs gnuplot on it to make <path_stem>.png.
absl::Status RenderFpPlot(const FpPlot& plot, const std::string& path_stem);

}  // namespace sstfilter::bench

#endif  // SSTFILTER_BENCH_FP_PLOT_H_

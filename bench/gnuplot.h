// Runs gnuplot (Debian gnuplot-nox) on a script written beside its image.
//
// A script names no absolute path: it starts with OutputBeside's preamble,
// which sets script_dir from the script's own path, so `gnuplot dir/x.gp`,
// run from any directory, writes dir/x.png. Data are inlined in the script,
// so a reader can restyle the picture without rerunning the measurement.
#ifndef SSTFILTER_BENCH_GNUPLOT_H_
#define SSTFILTER_BENCH_GNUPLOT_H_

#include <string>

#include "absl/status/status.h"

namespace sstfilter::bench {

// The style of a plot's i-th curve (its colour and point shape by i):
// sstfilter's solid, others' (RocksDB's built-ins) dashed, the family a
// reader compares (`stands_out`) thick.
std::string CurveStyle(size_t i, bool ours, bool stands_out);

// "x.png" for the path stem "dir/x".
std::string PngNameOf(const std::string& path_stem);

// The preamble that defines script_dir (the script's directory, with its
// trailing '/'): outputs are then `set output script_dir.'<png>'`.
std::string OutputBeside();

// Writes <path_stem>.gp and runs gnuplot on it.
absl::Status RunGnuplot(const std::string& script, const std::string& path_stem);

}  // namespace sstfilter::bench

#endif  // SSTFILTER_BENCH_GNUPLOT_H_

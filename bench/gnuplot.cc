#include "bench/gnuplot.h"

#include <cstdlib>
#include <fstream>

#include "absl/strings/str_format.h"

namespace sstfilter::bench {

std::string CurveStyle(size_t i, bool ours, bool stands_out) {
  constexpr const char* kColours[] = {"#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e",
                                      "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};
  return absl::StrFormat("lc rgb '%s' lw %g dt %d pt %d ps 1.1", kColours[i % 10],
                         stands_out ? 2.5 : 1.5, ours ? 1 : 2, 4 + static_cast<int>(i));
}

std::string PngNameOf(const std::string& path_stem) {
  const size_t slash = path_stem.rfind('/');
  return (slash == std::string::npos ? path_stem : path_stem.substr(slash + 1)) + ".png";
}

// ARG0 is the script's path as gnuplot was given it ("" when read from
// stdin: then the working directory).
std::string OutputBeside() {
  return "# Writes its picture beside this script: gnuplot path/to/this.gp\n"
         "script_dir = ARG0\n"
         "dir_end = strlen(script_dir)\n"
         "while (dir_end > 0 && script_dir[dir_end:dir_end] ne '/') { dir_end = dir_end - 1 }\n"
         "script_dir = script_dir[1:dir_end]\n";
}

absl::Status RunGnuplot(const std::string& script, const std::string& path_stem) {
  const std::string gp = path_stem + ".gp";
  {
    std::ofstream out(gp);
    out << script;
    if (!out) return absl::UnavailableError("cannot write " + gp);
  }
  const std::string command = "gnuplot '" + gp + "' 2>&1";
  if (std::system(command.c_str()) != 0) {
    return absl::UnavailableError(
        "gnuplot failed on " + gp + " (install gnuplot-nox, e.g. via tools/dev build)");
  }
  return absl::OkStatus();
}

}  // namespace sstfilter::bench

#include "bench/gnuplot.h"

#include <cstdlib>
#include <fstream>

namespace sstfilter::bench {

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

// The gnuplot scripts of the FP report (bench/fp_plot.h) name no absolute
// path and render from any working directory, writing the PNG beside
// themselves; the same holds for the scripts committed in bench-results/.
#include "bench/fp_plot.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "db_test_util.h"
#include "gtest/gtest.h"

namespace sstfilter::bench {
namespace {

namespace fs = std::filesystem;

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Runs `gnuplot <script>` in `cwd`; true when gnuplot succeeded.
bool RunGnuplot(const fs::path& cwd, const std::string& script) {
  const std::string command =
      "cd '" + cwd.string() + "' && gnuplot '" + script + "' > /dev/null 2>&1";
  return std::system(command.c_str()) == 0;
}

// A quoted path that starts with '/' or '~' is absolute ('/' alone is the
// separator the script looks for in its own path).
// (std::regex is avoided: GCC 12's -Wmaybe-uninitialized fires inside it in
// the sanitizer build, which builds with -Werror.)
void ExpectNoAbsolutePath(const std::string& script, const std::string& what) {
  for (size_t open = script.find_first_of("'\""); open != std::string::npos;
       open = script.find_first_of("'\"", open + 1)) {
    const size_t close = script.find(script[open], open + 1);
    if (close == std::string::npos) break;
    const std::string quoted = script.substr(open + 1, close - open - 1);
    const bool absolute = quoted.size() > 1 && (quoted[0] == '/' || quoted[0] == '~') &&
                          quoted.find_first_of(" \t\n") == std::string::npos;
    EXPECT_FALSE(absolute) << what << " names an absolute path: " << quoted;
    open = close;
  }
}

FpPlot TwoPanelPlot() {
  FpPlot plot;
  plot.title = "test plot";
  plot.x_label = "n";
  plot.log_x = true;
  for (const char* shape : {"a", "b"}) {
    FpPanel panel{std::string("keys: ") + shape, {}};
    panel.series.push_back({"reference", {{1000, 0.01, 0.009}, {10000, 0.012, 0.009}}});
    panel.series.push_back({"other", {{1000, 0.011, 0.01}, {10000, 0.01, 0.01}}});
    plot.panels.push_back(panel);
  }
  return plot;
}

class FpPlotTest : public ::testing::Test {
 protected:
  FpPlotTest() { fs::create_directories(out_dir()); }
  fs::path root() const { return dir_.path(); }
  fs::path out_dir() const { return root() / "results"; }
  fs::path elsewhere() const { return root() / "elsewhere"; }

  sstfilter::testing::TempDir dir_;
};

TEST_F(FpPlotTest, ScriptNamesNoAbsolutePathAndRendersFromAnyDirectory) {
  const fs::path stem = out_dir() / "fp_test";
  ASSERT_TRUE(RenderFpPlot(TwoPanelPlot(), stem.string()).ok());
  const fs::path png = out_dir() / "fp_test.png";
  EXPECT_TRUE(fs::exists(png));

  const std::string script = ReadFile(out_dir() / "fp_test.gp");
  EXPECT_EQ(script.find(root().string()), std::string::npos) << script;
  ExpectNoAbsolutePath(script, "fp_test.gp");

  // By relative path from the parent directory, and by absolute path from
  // an unrelated one: the PNG lands beside the script either way.
  fs::create_directories(elsewhere());
  for (const auto& [cwd, path] :
       {std::pair<fs::path, std::string>{root(), "results/fp_test.gp"},
        std::pair<fs::path, std::string>{elsewhere(), (out_dir() / "fp_test.gp").string()}}) {
    fs::remove(png);
    ASSERT_TRUE(RunGnuplot(cwd, path)) << "gnuplot " << path << " in " << cwd;
    EXPECT_TRUE(fs::exists(png)) << "gnuplot " << path << " in " << cwd;
    EXPECT_GT(fs::file_size(png), 1000u);
  }
  EXPECT_FALSE(fs::exists(root() / "fp_test.png"));
  EXPECT_FALSE(fs::exists(elsewhere() / "fp_test.png"));
}

TEST_F(FpPlotTest, CommittedScriptsNameNoAbsolutePathAndRender) {
  for (const char* name : {"fp_vs_n", "fp_vs_bits"}) {
    const fs::path committed =
        fs::path(SSTFILTER_SOURCE_DIR) / "bench-results" / (name + std::string(".gp"));
    const std::string script = ReadFile(committed);
    ASSERT_FALSE(script.empty()) << committed;
    ExpectNoAbsolutePath(script, committed.string());
    // Rendered from a copy, so the committed PNG stays as it is.
    const fs::path copy = out_dir() / committed.filename();
    fs::copy_file(committed, copy, fs::copy_options::overwrite_existing);
    fs::create_directories(elsewhere());
    ASSERT_TRUE(RunGnuplot(elsewhere(), copy.string())) << committed;
    EXPECT_TRUE(fs::exists(out_dir() / (name + std::string(".png")))) << committed;
  }
}

}  // namespace
}  // namespace sstfilter::bench

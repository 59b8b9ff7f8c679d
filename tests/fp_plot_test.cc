// The gnuplot scripts of the FP report (bench/fp_plot.h) name no absolute
// path and render from any working directory, writing the PNG beside
// themselves; the same holds for the scripts committed in bench-results/.
// The report's plots (bench/fp_report_views.h) put each kind at the bits/key
// it spends, which is not the configured setting.
#include "bench/fp_plot.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "bench/fp_report_views.h"
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
  for (const char* name : {"fp_vs_n", "fp_vs_bits", "fp_vs_spent"}) {
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

// Only the lower-bound switch draws 2^-x, in the panels and the legend.
TEST_F(FpPlotTest, LowerBoundDrawnOnlyWhenAsked) {
  for (bool bound : {false, true}) {
    FpPlot plot = TwoPanelPlot();
    plot.draw_lower_bound = bound;
    const fs::path stem = out_dir() / (bound ? "with_bound" : "without_bound");
    ASSERT_TRUE(RenderFpPlot(plot, stem.string()).ok());
    const std::string script = ReadFile(stem.string() + ".gp");
    size_t curves = 0;
    for (size_t at = script.find("2**(-x)"); at != std::string::npos;
         at = script.find("2**(-x)", at + 1)) {
      ++curves;
    }
    EXPECT_EQ(curves, bound ? 2u : 0u) << "one per panel";
    EXPECT_EQ(script.find("least possible") != std::string::npos, bound);
  }
}

// Two kinds configured at 8 and 10 bits/key: a Bloom-like one spending what
// it is configured with and a compact one spending less. Rows come in a
// scrambled order, with rows of another n and shape that must stay out.
std::vector<FpRow> TwoKindRows() {
  auto row = [](KeyShape shape, size_t n, double bits, const char* impl, size_t bytes,
                size_t fps) {
    FpMeasurement m;
    m.num_keys = n;
    m.filter_bytes = bytes;
    m.queries = 100000;
    m.false_positives = fps;
    m.expected_fp_rate = fps / 100000.0;
    return FpRow{shape, n, bits, impl, m};
  };
  const KeyShape s = KeyShape::kRandom16;
  return {row(s, 1000, 10, "compact", 955, 960),    row(s, 1000, 10, "bloom", 1250, 950),
          row(s, 1000, 8, "compact", 780, 2300),    row(s, 1000, 8, "bloom", 1000, 2200),
          row(s, 100, 10, "compact", 120, 1000),    row(KeyShape::kUrl, 1000, 10, "bloom", 1, 1)};
}

std::vector<FilterImpl> TwoKinds() {
  return {{"bloom", "a Bloom filter", true, nullptr}, {"compact", "a compact filter", true, nullptr}};
}

std::vector<double> Xs(const FpSeries& series) {
  std::vector<double> xs;
  for (const FpPoint& p : series.points) xs.push_back(p.x);
  return xs;
}

TEST(FpReportViewsTest, SpentAxisPutsEachKindAtItsBytesTimesEightOverN) {
  const FpPlot plot = MakeFpPlot(TwoKindRows(), {KeyShape::kRandom16}, TwoKinds(),
                                 FpAxis::kSpentBits, 10, 1000);
  ASSERT_EQ(plot.panels.size(), 1u);
  ASSERT_EQ(plot.panels[0].series.size(), 2u);
  EXPECT_EQ(plot.panels[0].series[0].label, "a Bloom filter");
  EXPECT_EQ(plot.panels[0].series[1].label, "a compact filter");
  // 1000 and 1250 bytes over 1000 keys; 780 and 955 bytes.
  EXPECT_EQ(Xs(plot.panels[0].series[0]), (std::vector<double>{8.0, 10.0}));
  EXPECT_EQ(Xs(plot.panels[0].series[1]), (std::vector<double>{6.24, 7.64}));
  EXPECT_DOUBLE_EQ(plot.panels[0].series[1].points[0].measured, 0.023);
  EXPECT_TRUE(plot.draw_lower_bound);
  EXPECT_NE(plot.x_label.find("spent"), std::string::npos) << plot.x_label;
}

TEST(FpReportViewsTest, ConfiguredAndKeysAxesKeepTheSettingAndN) {
  const FpPlot configured = MakeFpPlot(TwoKindRows(), {KeyShape::kRandom16}, TwoKinds(),
                                       FpAxis::kConfiguredBits, 10, 1000);
  ASSERT_EQ(configured.panels[0].series.size(), 2u);
  EXPECT_EQ(Xs(configured.panels[0].series[1]), (std::vector<double>{8.0, 10.0}));
  EXPECT_FALSE(configured.draw_lower_bound);
  const FpPlot keys = MakeFpPlot(TwoKindRows(), {KeyShape::kRandom16}, TwoKinds(),
                                 FpAxis::kKeys, 10, 1000);
  EXPECT_EQ(Xs(keys.panels[0].series[1]), (std::vector<double>{100.0, 1000.0}));
  EXPECT_TRUE(keys.log_x);
}

TEST(FpReportViewsTest, SummaryListsSpentBitsAndOverheadOverTheLeast) {
  const std::string text = SpentBitsSummary(TwoKindRows(), TwoKinds(), 10, {100, 1000});
  // n = 100: only compact has a row (120 bytes * 8 / 100 keys). n = 1000:
  // bloom spends 10.00 on random16 and 0.01 (1 byte) on url.
  EXPECT_NE(text.find("      100                -             9.60\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("     1000      0.01..10.00             7.64\n"), std::string::npos)
      << text;
  // FP 0.96% over 7.64 bits: log2(1/0.0096) = 6.703, so 1.140x the least.
  EXPECT_NE(text.find("compact            0.9600%    7.64  1.140x"), std::string::npos)
      << text;
}

}  // namespace
}  // namespace sstfilter::bench

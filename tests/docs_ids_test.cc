// Every policy id README.md and docs/ show parses: a user copies them. An
// id is the text "sstfilter.bloom" and the ':'-separated fields after it; a
// template (a field in capitals, N or POLICY, or an id followed by "[", "<"
// or "*") is skipped, and the ids the docs show as refused must be refused.
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "filter/filter_options.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace {

// What the docs show as refused (a bad value).
const std::set<std::string> kShownRefused = {"sstfilter.bloom:0"};

struct ShownId {
  std::string file;
  std::string id;
};

bool IsTemplate(const std::string& id, char next) {
  if (next == '[' || next == '<' || next == '*' || next == '%') return true;
  return std::regex_search(id, std::regex(":[A-Z]+(:|$)"));
}

std::vector<ShownId> IdsIn(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  const std::string s = text.str();
  static const std::regex kId("sstfilter\\.bloom(:[A-Za-z0-9_.+-]+)*");
  std::vector<ShownId> ids;
  for (auto m = std::sregex_iterator(s.begin(), s.end(), kId); m != std::sregex_iterator(); ++m) {
    const size_t end = m->position() + m->length();
    std::string id = m->str();
    while (!id.empty() && id.back() == '.') id.pop_back();  // A sentence's full stop.
    if (!IsTemplate(id, end < s.size() ? s[end] : '\0')) {
      ids.push_back({file.filename().string(), id});
    }
  }
  return ids;
}

std::vector<std::filesystem::path> DocFiles() {
  const std::filesystem::path root(SSTFILTER_SOURCE_DIR);
  std::vector<std::filesystem::path> files = {root / "README.md"};
  for (const auto& entry : std::filesystem::directory_iterator(root / "docs")) {
    if (entry.path().extension() == ".md") files.push_back(entry.path());
  }
  return files;
}

TEST(DocsIdsTest, EveryIdShownParses) {
  size_t checked = 0, refused = 0;
  for (const auto& file : DocFiles()) {
    for (const ShownId& shown : IdsIn(file)) {
      const absl::StatusOr<FilterOptions> options = ParsePolicyId(shown.id);
      if (kShownRefused.count(shown.id) != 0) {
        EXPECT_FALSE(options.ok()) << shown.file << " shows " << shown.id << " as refused";
        ++refused;
        continue;
      }
      EXPECT_TRUE(options.ok()) << shown.file << ": " << shown.id << ": " << options.status();
      ++checked;
    }
  }
  // README.md and docs/ show many ids: a reader that finds none is broken.
  EXPECT_GT(checked, 50u);
  EXPECT_GT(refused, 0u);
}

}  // namespace
}  // namespace sstfilter

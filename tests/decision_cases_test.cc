// The model's decisions as data: each file of tests/decisions/ states a
// tree (filter/allocation/tree_text.h), a policy, a block cache and the
// tables to decide, then, after a line `----`, the decisions as this test
// prints them. A case fails when the model decides otherwise; with
// SSTFILTER_REWRITE_DECISIONS=1 in the environment, the files' expected
// parts are rewritten instead (read the diff before committing it).
//
//   # What the case shows.
//   policy sstfilter.bloom:10:cache_local:optimize_levels:cache_aware
//   cache mib=8 [whole] [coupled] [partition_bytes=4096] [high_pri_ratio=0.5]
//   <tree lines>
//   decide L3 [flush] [bottommost] [fifo] [outside] entries=100000 [smallest=k1 largest=k2]
//   ----
//   <the decisions>
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "filter/allocation/tree_text.h"
#include "filter/encoding_id.h"
#include "filter/filter_options.h"
#include "filter/plan/plan_text.h"
#include "filter/plan/table_choice.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace {

constexpr char kSeparator[] = "----";

std::filesystem::path CasesDir() {
  return std::filesystem::path(SSTFILTER_SOURCE_DIR) / "tests" / "decisions";
}

std::vector<std::string> CaseNames() {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(CasesDir())) {
    if (entry.path().extension() == ".txt") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// One table to decide.
struct Ask {
  TableSite site;
  FilterKeys keys;
};

// A case as read: its input lines (kept for a rewrite) and what they say.
struct Case {
  std::vector<std::string> input;
  std::string expected;
  int policies = 0;  // `policy` lines: exactly one is required.
  FilterOptions options;
  std::optional<CacheSite> cache;
  TreeTextReader tree;
  std::vector<Ask> asks;
};

// A case line's words after the first `skip`: `name=value` fields and bare
// flags, each known to the line's kind and given once (else the test fails
// naming the line).
struct Words {
  std::map<std::string, std::string> fields;
  std::set<std::string> flags;
};

Words WordsOf(const std::string& line, const std::vector<std::string>& words, size_t skip,
              const std::set<std::string>& known_fields,
              const std::set<std::string>& known_flags) {
  Words out;
  for (size_t i = skip; i < words.size(); ++i) {
    const size_t eq = words[i].find('=');
    const std::string name = words[i].substr(0, eq);
    const bool known = eq == std::string::npos ? known_flags.count(name) : known_fields.count(name);
    EXPECT_TRUE(known) << "'" << line << "': unknown word " << words[i];
    const bool once = eq == std::string::npos
                          ? out.flags.insert(name).second
                          : out.fields.emplace(name, words[i].substr(eq + 1)).second;
    EXPECT_TRUE(once) << "'" << line << "': " << name << " given twice";
  }
  return out;
}

// Field `name` as a number >= 0, or `otherwise` where absent.
double Number(const std::string& line, const Words& words, const std::string& name,
              double otherwise) {
  const auto it = words.fields.find(name);
  if (it == words.fields.end()) return otherwise;
  double value = -1;
  EXPECT_TRUE(absl::SimpleAtod(it->second, &value) && value >= 0)
      << "'" << line << "': " << name << "=" << it->second << " is not a number >= 0";
  return std::max(value, 0.0);
}

CacheSite ReadCache(const std::string& line, const std::vector<std::string>& words) {
  const Words w = WordsOf(line, words, 1, {"mib", "partition_bytes", "high_pri_ratio"},
                          {"whole", "coupled"});
  CacheSite cache;
  cache.capacity_bytes = Number(line, w, "mib", 0) * 1024 * 1024;
  cache.partitioned = w.flags.count("whole") == 0;
  cache.partitions_coupled = w.flags.count("coupled") > 0;
  cache.partition_bytes = Number(line, w, "partition_bytes", cache.partition_bytes);
  cache.high_pri_ratio = Number(line, w, "high_pri_ratio", cache.high_pri_ratio);
  return cache;
}

// decide L<n>|outside [flush] [bottommost] [fifo] entries=N [smallest=K largest=K]
Ask ReadAsk(const std::string& line, const std::vector<std::string>& words) {
  Ask ask;
  const std::string where = words.size() > 1 ? words[1] : "";
  if (where == "outside") {
    ask.site.level = -1;
  } else {
    EXPECT_TRUE(where.size() > 1 && where[0] == 'L' &&
                where.find_first_not_of("0123456789", 1) == std::string::npos &&
                absl::SimpleAtoi(where.substr(1), &ask.site.level))
        << "'" << line << "': expected L<level> or outside after decide";
  }
  const Words w = WordsOf(line, words, 2, {"entries", "smallest", "largest"},
                          {"flush", "bottommost", "fifo"});
  ask.site.flush = w.flags.count("flush") > 0;
  ask.site.bottommost = w.flags.count("bottommost") > 0;
  ask.site.tree_has_levels = w.flags.count("fifo") == 0;
  EXPECT_TRUE(w.fields.count("entries")) << "'" << line << "': no entries=";
  ask.keys.entries = static_cast<size_t>(Number(line, w, "entries", 0));
  const auto smallest = w.fields.find("smallest"), largest = w.fields.find("largest");
  EXPECT_EQ(smallest == w.fields.end(), largest == w.fields.end())
      << "'" << line << "': smallest and largest go together";
  if (smallest != w.fields.end() && largest != w.fields.end()) {
    ask.keys.has_range = true;
    EXPECT_TRUE(absl::CUnescape(smallest->second, &ask.keys.smallest)) << line;
    EXPECT_TRUE(absl::CUnescape(largest->second, &ask.keys.largest)) << line;
  }
  return ask;
}

void ReadInputLine(const std::string& line, Case* c) {
  std::vector<std::string> words = absl::StrSplit(line, absl::ByAnyChar(" \t"), absl::SkipEmpty());
  if (words.empty() || words[0][0] == '#') return;
  if (words[0] == "policy") {
    ++c->policies;
    ASSERT_EQ(words.size(), 2u) << line;
    const absl::StatusOr<FilterOptions> options = ParsePolicyId(words[1]);
    ASSERT_TRUE(options.ok()) << options.status();
    c->options = *options;
  } else if (words[0] == "cache") {
    EXPECT_FALSE(c->cache.has_value()) << "'" << line << "': a second cache line";
    c->cache = ReadCache(line, words);
  } else if (words[0] == "decide") {
    c->asks.push_back(ReadAsk(line, words));
  } else {
    const absl::Status status = c->tree.Read(line);
    ASSERT_TRUE(status.ok()) << status;
  }
}

Case ReadCase(const std::string& name) {
  std::ifstream in(CasesDir() / (name + ".txt"));
  EXPECT_TRUE(in) << name;
  Case c;
  std::string line;
  bool expected = false;
  while (std::getline(in, line)) {
    if (expected) {
      c.expected += line + "\n";
    } else if (line == kSeparator) {
      expected = true;
    } else {
      c.input.push_back(line);
      ReadInputLine(line, &c);
    }
  }
  EXPECT_TRUE(expected) << name << ": no line " << kSeparator;
  EXPECT_EQ(c.policies, 1) << name << ": a case states its policy once";
  EXPECT_FALSE(c.asks.empty()) << name << ": a case with no decide line";
  return c;
}

std::string SiteText(const Ask& ask) {
  if (!ask.site.in_tree()) return "outside the tree";
  std::string text = absl::StrFormat("L%d", ask.site.level);
  if (ask.site.flush) text += " flush";
  if (ask.site.bottommost) text += " bottommost";
  if (!ask.site.tree_has_levels) text += " fifo";
  return text;
}

// The decision for `ask`, as printed: where, what, and the plan it came
// from.
std::string Decide(const Case& c, const Ask& ask) {
  auto runs = std::make_shared<const TreeRuns>(c.tree.Tree());
  TableSite site = ask.site;
  site.entries = static_cast<double>(ask.keys.entries);
  const TableChoice choice = ChooseForSite(c.options, site, runs, c.cache ? &*c.cache : nullptr);
  std::string text = absl::StrFormat("%s, %d entries: ", SiteText(ask), ask.keys.entries);
  if (choice.no_filter) {
    text += "no filter";
  } else if (choice.fp_rule.has_value()) {
    absl::StrAppendFormat(&text, "%s, %.4f bits/key%s", EncodingName(choice.encoding),
                          FilterSettingOf(choice)(ask.keys),
                          choice.reads_range() ? " (sized by its key range's Gets)" : "");
  } else {
    absl::StrAppendFormat(&text, "%s, the uniform setting", EncodingName(choice.encoding));
  }
  text += "\n";
  if (choice.plan.has_value()) text += "  plan: " + DescribePlan(*choice.plan) + "\n";
  return text;
}

void Rewrite(const std::string& name, const Case& c, const std::string& actual) {
  std::ofstream out(CasesDir() / (name + ".txt"), std::ios::trunc);
  for (const std::string& line : c.input) out << line << "\n";
  out << kSeparator << "\n" << actual;
}

class DecisionCaseTest : public ::testing::TestWithParam<std::string> {};

TEST_P(DecisionCaseTest, DecidesAsWritten) {
  const Case c = ReadCase(GetParam());
  if (HasFailure()) return;  // The case did not read: nothing to decide or rewrite.
  std::string actual;
  for (const Ask& ask : c.asks) actual += Decide(c, ask);
  const char* rewrite = std::getenv("SSTFILTER_REWRITE_DECISIONS");
  if (rewrite != nullptr && std::string(rewrite) == "1") {
    Rewrite(GetParam(), c, actual);
    GTEST_SKIP() << "rewritten, not compared: tests/decisions/" << GetParam() << ".txt";
  }
  EXPECT_EQ(actual, c.expected)
      << "tests/decisions/" << GetParam()
      << ".txt: the model decides otherwise (SSTFILTER_REWRITE_DECISIONS=1 rewrites it)";
}

INSTANTIATE_TEST_SUITE_P(Cases, DecisionCaseTest, ::testing::ValuesIn(CaseNames()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

}  // namespace
}  // namespace sstfilter

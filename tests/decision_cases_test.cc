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
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "filter/plan/plan_text.h"
#include "filter/plan/table_choice.h"
#include "filter/allocation/tree_text.h"
#include "filter/encoding_id.h"
#include "filter/filter_options.h"
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
  FilterOptions options;
  std::optional<CacheSite> cache;
  TreeRuns runs;
  std::vector<Ask> asks;
};

std::map<std::string, std::string> FieldsOf(const std::vector<std::string>& words,
                                            std::vector<std::string>* flags) {
  std::map<std::string, std::string> fields;
  for (size_t i = 1; i < words.size(); ++i) {
    const size_t eq = words[i].find('=');
    if (eq == std::string::npos) {
      flags->push_back(words[i]);
    } else {
      fields[words[i].substr(0, eq)] = words[i].substr(eq + 1);
    }
  }
  return fields;
}

bool Has(const std::vector<std::string>& flags, const std::string& flag) {
  return std::find(flags.begin(), flags.end(), flag) != flags.end();
}

double Number(const std::map<std::string, std::string>& fields, const std::string& name,
              double otherwise) {
  const auto it = fields.find(name);
  double value = otherwise;
  if (it != fields.end()) {
    EXPECT_TRUE(absl::SimpleAtod(it->second, &value)) << name;
  }
  return value;
}

CacheSite ReadCache(const std::vector<std::string>& words) {
  std::vector<std::string> flags;
  const auto fields = FieldsOf(words, &flags);
  CacheSite cache;
  cache.capacity_bytes = Number(fields, "mib", 0) * 1024 * 1024;
  cache.partitioned = !Has(flags, "whole");
  cache.partitions_coupled = Has(flags, "coupled");
  cache.partition_bytes = Number(fields, "partition_bytes", cache.partition_bytes);
  cache.high_pri_ratio = Number(fields, "high_pri_ratio", cache.high_pri_ratio);
  return cache;
}

Ask ReadAsk(const std::vector<std::string>& words) {
  std::vector<std::string> flags;
  const auto fields = FieldsOf(words, &flags);
  Ask ask;
  EXPECT_FALSE(flags.empty()) << "decide: no level";
  if (!flags.empty() && flags[0] != "outside") {
    EXPECT_TRUE(absl::SimpleAtoi(flags[0].substr(1), &ask.site.level)) << flags[0];
  }
  ask.site.level = Has(flags, "outside") ? -1 : ask.site.level;
  ask.site.flush = Has(flags, "flush");
  ask.site.bottommost = Has(flags, "bottommost");
  ask.site.tree_has_levels = !Has(flags, "fifo");
  ask.keys.entries = static_cast<size_t>(Number(fields, "entries", 0));
  const auto smallest = fields.find("smallest"), largest = fields.find("largest");
  if (smallest != fields.end() && largest != fields.end()) {
    ask.keys.has_range = true;
    EXPECT_TRUE(absl::CUnescape(smallest->second, &ask.keys.smallest));
    EXPECT_TRUE(absl::CUnescape(largest->second, &ask.keys.largest));
  }
  return ask;
}

void ReadInputLine(const std::string& line, Case* c) {
  std::vector<std::string> words = absl::StrSplit(line, absl::ByAnyChar(" \t"), absl::SkipEmpty());
  if (words.empty() || words[0][0] == '#') return;
  if (words[0] == "policy") {
    ASSERT_EQ(words.size(), 2u) << line;
    const absl::StatusOr<FilterOptions> options = ParsePolicyId(words[1]);
    ASSERT_TRUE(options.ok()) << options.status();
    c->options = *options;
  } else if (words[0] == "cache") {
    c->cache = ReadCache(words);
  } else if (words[0] == "decide") {
    c->asks.push_back(ReadAsk(words));
  } else {
    const absl::Status status = ReadTreeLine(line, &c->runs);
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
  auto runs = std::make_shared<const TreeRuns>(c.runs);
  const TableChoice choice =
      ChooseForSite(c.options, ask.site, runs, c.cache ? &*c.cache : nullptr);
  std::string text = absl::StrFormat("%s, %d entries: ", SiteText(ask), ask.keys.entries);
  if (choice.no_filter) {
    text += "no filter";
  } else if (choice.setting) {
    absl::StrAppendFormat(&text, "%s, %.4f bits/key%s", EncodingName(choice.encoding),
                          choice.setting(ask.keys),
                          choice.reads_range ? " (sized by its key range's Gets)" : "");
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
  ASSERT_FALSE(c.asks.empty()) << "a case with no decide line";
  std::string actual;
  for (const Ask& ask : c.asks) actual += Decide(c, ask);
  const char* rewrite = std::getenv("SSTFILTER_REWRITE_DECISIONS");
  if (rewrite != nullptr && std::string(rewrite) == "1") {
    Rewrite(GetParam(), c, actual);
    return;
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

#include "filter/allocation/tree_text.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "filter/allocation/tree_traffic.h"

namespace sstfilter {

namespace {

// ----- Writing.

// C-escaped, a space as \040 (a line's fields are split at spaces).
std::string EscapedKey(const std::string& key) {
  std::string out;
  for (const char c : absl::CEscape(key))
    out += c == ' ' ? std::string("\\040") : std::string(1, c);
  return out;
}

// The shortest text that reads back as `value`.
std::string ShortestNumber(double value) {
  char text[32];
  const auto result = std::to_chars(text, text + sizeof(text), value);
  return std::string(text, result.ptr);
}

std::string RunCensusText(const RunCensus& run) {
  std::string text = absl::StrFormat("keys=%d tables=%d", run.keys, run.tables);
  if (run.fixed_keys != 0 || run.fixed_filter_bits != 0) {
    absl::StrAppendFormat(&text, " fixed_keys=%d fixed_bits=%d", run.fixed_keys,
                          run.fixed_filter_bits);
  }
  if (run.reach != 1) absl::StrAppendFormat(&text, " reach=%s", ShortestNumber(run.reach));
  return text;
}

std::string NumberTargetsText(const LevelTargets& t) {
  if (!t.leveled) return "";
  return absl::StrFormat("targets leveled l0_tables=%d%s multiplier=%s base_entries=%s\n",
                         t.l0_tables, t.dynamic ? " dynamic" : "", ShortestNumber(t.multiplier),
                         ShortestNumber(t.base_entries));
}

std::string TableTrafficText(const char* level, const TableTraffic& t) {
  return absl::StrFormat(
      "traffic_table %s file=%d smallest=%s largest=%s keys=%d share=%s uniform=%s evidence=%s\n",
      level, t.file_number, EscapedKey(t.range.smallest), EscapedKey(t.range.largest), t.range.keys,
      ShortestNumber(t.share), ShortestNumber(t.uniform), ShortestNumber(t.evidence));
}

std::string TrafficText(const TreeTraffic& traffic) {
  std::string text = absl::StrFormat("traffic gets=%s\n", ShortestNumber(traffic.gets));
  for (const TableTraffic& t : traffic.l0) text += TableTrafficText("L0", t);
  for (size_t level = 0; level < traffic.levels.size(); ++level) {
    const std::string name = absl::StrFormat("L%d", level);
    for (const TableTraffic& t : traffic.levels[level]) text += TableTrafficText(name.c_str(), t);
  }
  return text;
}

// ----- Reading.

// A line's fields: `name=value` ones and bare words (flags).
struct LineFields {
  std::map<std::string, std::string> values;
  std::map<std::string, bool> flags;  // Each: whether it was taken.
};

absl::Status BadLine(std::string_view line, std::string_view why) {
  return absl::InvalidArgumentError(
      absl::StrFormat("tree line '%s': %s", std::string(line), std::string(why)));
}

template <typename T>
bool ParseNumber(const std::string& text, T* value) {
  if constexpr (std::is_floating_point_v<T>) {
    return absl::SimpleAtod(text, value) && std::isfinite(*value);
  } else {
    return absl::SimpleAtoi(text, value);
  }
}

// Moves field `name` of `fields` into `value` (left as it is if absent).
template <typename T>
absl::Status TakeNumber(std::string_view line, LineFields* fields, const std::string& name,
                        T* value) {
  const auto it = fields->values.find(name);
  if (it == fields->values.end()) return absl::OkStatus();
  if (!ParseNumber(it->second, value)) {
    return BadLine(line, absl::StrFormat("%s=%s is not a number", name, it->second));
  }
  fields->values.erase(it);
  return absl::OkStatus();
}

bool TakeFlag(LineFields* fields, const std::string& name) {
  const auto it = fields->flags.find(name);
  if (it == fields->flags.end()) return false;
  fields->flags.erase(it);
  return true;
}

absl::Status TakeKey(std::string_view line, LineFields* fields, const std::string& name,
                     std::string* key) {
  const auto it = fields->values.find(name);
  if (it == fields->values.end()) return absl::OkStatus();
  if (!absl::CUnescape(it->second, key)) return BadLine(line, "bad escape in " + name);
  fields->values.erase(it);
  return absl::OkStatus();
}

// OK when every field was taken; else names the first left.
absl::Status AllTaken(std::string_view line, const LineFields& fields) {
  if (!fields.values.empty()) return BadLine(line, "unknown field " + fields.values.begin()->first);
  if (!fields.flags.empty()) return BadLine(line, "unknown word " + fields.flags.begin()->first);
  return absl::OkStatus();
}

// "L<n>" as n.
bool ParseLevelWord(std::string_view word, int* level) {
  absl::string_view digits(word.data(), word.size());
  return absl::ConsumePrefix(&digits, "L") && absl::SimpleAtoi(digits, level) && *level >= 0 &&
         *level < 64;
}

// A numeric field of a line and where its value goes.
using NumberTarget = std::variant<uint64_t*, int*, double*>;
struct NumberField {
  const char* name;
  NumberTarget target;
};

// Takes each of `numbers` present in `f`; then OK when every field of the
// line was taken.
absl::Status TakeAll(std::string_view line, LineFields* f,
                     std::initializer_list<NumberField> numbers) {
  for (const NumberField& number : numbers) {
    const absl::Status taken = std::visit(
        [&](auto* value) { return TakeNumber(line, f, number.name, value); }, number.target);
    if (!taken.ok()) return taken;
  }
  return AllTaken(line, *f);
}

absl::Status ReadRun(std::string_view line, LineFields* f, RunCensus* run) {
  return TakeAll(line, f,
                 {{"keys", &run->keys},
                  {"tables", &run->tables},
                  {"fixed_keys", &run->fixed_keys},
                  {"fixed_bits", &run->fixed_filter_bits},
                  {"reach", &run->reach}});
}

absl::Status ReadTargets(std::string_view line, LineFields* f, LevelTargets* t) {
  t->leveled = TakeFlag(f, "leveled");
  t->dynamic = TakeFlag(f, "dynamic");
  return TakeAll(line, f,
                 {{"l0_tables", &t->l0_tables},
                  {"multiplier", &t->multiplier},
                  {"base_entries", &t->base_entries}});
}

absl::Status ReadBlocks(std::string_view line, LineFields* f, BlockShape* b) {
  return TakeAll(line, f,
                 {{"entries", &b->entries},
                  {"data_bytes", &b->data_bytes},
                  {"data_blocks", &b->data_blocks},
                  {"index_bytes", &b->index_bytes},
                  {"index_blocks", &b->index_blocks}});
}

absl::Status ReadMisses(std::string_view line, LineFields* f, MissWindow* m) {
  return TakeAll(line, f,
                 {{"gets", &m->gets},
                  {"filter", &m->reads.filter},
                  {"index", &m->reads.index},
                  {"data", &m->reads.data},
                  {"new_filter_bytes", &m->new_filter_bytes}});
}

// The traffic being read (a copy: TreeRuns holds it const).
TreeTraffic* MutableTraffic(TreeRuns* runs) {
  auto traffic = runs->traffic != nullptr ? std::make_shared<TreeTraffic>(*runs->traffic)
                                          : std::make_shared<TreeTraffic>();
  runs->traffic = traffic;
  return traffic.get();
}

absl::Status ReadTableTraffic(std::string_view line, std::string_view level_word, LineFields* f,
                              TreeRuns* runs) {
  int level = 0;
  if (!ParseLevelWord(level_word, &level)) return BadLine(line, "expected a level (L0, L1, ...)");
  TableTraffic t;
  for (const auto& [name, key] :
       {std::pair("smallest", &t.range.smallest), std::pair("largest", &t.range.largest)}) {
    const absl::Status taken = TakeKey(line, f, name, key);
    if (!taken.ok()) return taken;
  }
  const absl::Status taken = TakeAll(line, f,
                                     {{"file", &t.file_number},
                                      {"keys", &t.range.keys},
                                      {"share", &t.share},
                                      {"uniform", &t.uniform},
                                      {"evidence", &t.evidence}});
  if (!taken.ok()) return taken;
  TreeTraffic* traffic = MutableTraffic(runs);
  if (level == 0) {
    traffic->l0.push_back(std::move(t));
    return absl::OkStatus();
  }
  if (traffic->levels.size() <= static_cast<size_t>(level)) traffic->levels.resize(level + 1);
  traffic->levels[level].push_back(std::move(t));
  return absl::OkStatus();
}

}  // namespace

std::string TreeText(const TreeRuns& runs) {
  std::string text = NumberTargetsText(runs.targets);
  for (const RunCensus& run : runs.l0_tables) text += "L0 " + RunCensusText(run) + "\n";
  for (size_t level = 1; level < runs.levels.size(); ++level) {
    absl::StrAppendFormat(&text, "L%d %s\n", level, RunCensusText(runs.levels[level]));
  }
  const BlockShape& b = runs.blocks;
  if (b.known()) {
    absl::StrAppendFormat(&text,
                          "blocks entries=%s data_bytes=%s data_blocks=%s index_bytes=%s "
                          "index_blocks=%s\n",
                          ShortestNumber(b.entries), ShortestNumber(b.data_bytes),
                          ShortestNumber(b.data_blocks), ShortestNumber(b.index_bytes),
                          ShortestNumber(b.index_blocks));
  }
  if (runs.hit_share.has_value()) {
    absl::StrAppendFormat(&text, "hit_share %s%s\n", ShortestNumber(*runs.hit_share),
                          runs.hit_share_carried ? " carried" : "");
  }
  if (runs.observed_misses.has_value()) {
    const MissWindow& m = *runs.observed_misses;
    absl::StrAppendFormat(&text, "misses gets=%s filter=%s index=%s data=%s new_filter_bytes=%s\n",
                          ShortestNumber(m.gets), ShortestNumber(m.reads.filter),
                          ShortestNumber(m.reads.index), ShortestNumber(m.reads.data),
                          ShortestNumber(m.new_filter_bytes));
  }
  if (runs.traffic != nullptr) text += TrafficText(*runs.traffic);
  return text;
}

absl::Status ReadTreeLine(std::string_view line, TreeRuns* runs) {
  std::vector<std::string> words = absl::StrSplit(absl::string_view(line.data(), line.size()),
                                                  absl::ByAnyChar(" \t"), absl::SkipEmpty());
  if (words.empty()) return absl::NotFoundError("an empty line");
  const std::string word = words[0];
  int level = 0;
  const bool is_level = ParseLevelWord(word, &level);
  if (!is_level && word != "targets" && word != "blocks" && word != "hit_share" &&
      word != "misses" && word != "traffic" && word != "traffic_table") {
    return absl::NotFoundError(absl::StrFormat("'%s' is no tree line's word", word));
  }
  const size_t first_field = word == "traffic_table" ? 2 : 1;
  if (words.size() < first_field) return BadLine(line, "expected a level");
  LineFields f;
  for (size_t i = first_field; i < words.size(); ++i) {
    const size_t eq = words[i].find('=');
    if (eq == std::string::npos) {
      f.flags[words[i]] = true;
    } else if (!f.values.emplace(words[i].substr(0, eq), words[i].substr(eq + 1)).second) {
      return BadLine(line, "field " + words[i].substr(0, eq) + " given twice");
    }
  }
  if (is_level && level == 0) return ReadRun(line, &f, &runs->l0_tables.emplace_back());
  if (is_level) {
    if (runs->levels.size() <= static_cast<size_t>(level)) runs->levels.resize(level + 1);
    return ReadRun(line, &f, &runs->levels[level]);
  }
  if (word == "targets") return ReadTargets(line, &f, &runs->targets);
  if (word == "blocks") return ReadBlocks(line, &f, &runs->blocks);
  if (word == "misses") return ReadMisses(line, &f, &runs->observed_misses.emplace());
  if (word == "traffic_table")
    return ReadTableTraffic(line, words.size() > 1 ? words[1] : "", &f, runs);
  if (word == "traffic") {
    return TakeAll(line, &f, {{"gets", &MutableTraffic(runs)->gets}});
  }
  // hit_share <share> [carried]
  double share = 0;
  if (words.size() < 2 || !ParseNumber(words[1], &share) || share < 0 || share > 1) {
    return BadLine(line, "expected hit_share <share in [0, 1]> [carried]");
  }
  f.flags.erase(words[1]);
  runs->hit_share = share;
  runs->hit_share_carried = TakeFlag(&f, "carried");
  return AllTaken(line, f);
}

}  // namespace sstfilter

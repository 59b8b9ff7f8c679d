#include "filter/allocation/tree_text.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <set>
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
  if (run.unfiltered_keys != 0)
    absl::StrAppendFormat(&text, " unfiltered_keys=%d", run.unfiltered_keys);
  if (run.reach != 1) absl::StrAppendFormat(&text, " reach=%s", ShortestNumber(run.reach));
  return text;
}

std::string LevelTargetsText(const LevelTargets& t) {
  if (t.l0_stays && !t.leveled) return "targets l0_stays\n";
  if (!t.leveled) return "";
  return absl::StrFormat("targets leveled l0_tables=%d%s%s multiplier=%s base_entries=%s\n",
                         t.l0_tables, t.dynamic ? " dynamic" : "", t.l0_stays ? " l0_stays" : "",
                         ShortestNumber(t.multiplier), ShortestNumber(t.base_entries));
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
  if (!ParseNumber(it->second, value) || !(*value >= 0)) {
    return BadLine(line, absl::StrFormat("%s=%s is not a number >= 0", name, it->second));
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

// Whether `word` names a level ("L" and digits, no sign, no leading zero).
bool IsLevelWord(std::string_view word) {
  return word.size() > 1 && word[0] == 'L' &&
         word.find_first_not_of("0123456789", 1) == std::string_view::npos &&
         (word.size() == 2 || word[1] != '0');
}

// The deepest level a tree line may name (RocksDB's num_levels is far less).
constexpr int kDeepestTextLevel = 63;

// "L<n>" as n, if a level word within kDeepestTextLevel.
bool ParseLevelWord(std::string_view word, int* level) {
  return IsLevelWord(word) && word.size() <= 3 &&
         absl::SimpleAtoi(absl::string_view(word.data() + 1, word.size() - 1), level) &&
         *level <= kDeepestTextLevel;
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
                  {"unfiltered_keys", &run->unfiltered_keys},
                  {"reach", &run->reach}});
}

absl::Status ReadTargets(std::string_view line, LineFields* f, LevelTargets* t) {
  t->leveled = TakeFlag(f, "leveled");
  t->dynamic = TakeFlag(f, "dynamic");
  t->l0_stays = TakeFlag(f, "l0_stays");
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

// Adds the line's table to *traffic (made if null).
absl::Status ReadTableTraffic(std::string_view line, std::string_view level_word, LineFields* f,
                              std::shared_ptr<TreeTraffic>* traffic_ptr) {
  int level = 0;
  if (!ParseLevelWord(level_word, &level)) {
    return BadLine(line, absl::StrFormat("expected a level (L0 to L%d)", kDeepestTextLevel));
  }
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
  if (t.share > 1 || t.uniform > 1) return BadLine(line, "a share above 1");
  if (*traffic_ptr == nullptr) *traffic_ptr = std::make_shared<TreeTraffic>();
  TreeTraffic* traffic = traffic_ptr->get();
  if (level == 0) {
    traffic->l0.push_back(std::move(t));
    return absl::OkStatus();
  }
  if (traffic->levels.size() <= static_cast<size_t>(level)) traffic->levels.resize(level + 1);
  traffic->levels[level].push_back(std::move(t));
  return absl::OkStatus();
}

// A run's line checked: its reach a share, its fixed part within it.
absl::Status CheckRun(std::string_view line, const RunCensus& run) {
  if (run.reach > 1) return BadLine(line, "reach above 1");
  if (run.fixed_keys > run.keys) return BadLine(line, "fixed_keys above keys");
  if (run.unfiltered_keys > run.fixed_keys)
    return BadLine(line, "unfiltered_keys above fixed_keys");
  return absl::OkStatus();
}

// hit_share <share> [carried]
absl::Status ReadHitShare(std::string_view line, const std::vector<std::string>& words,
                          LineFields* f, TreeRuns* runs) {
  double share = 0;
  if (words.size() < 2 || !ParseNumber(words[1], &share) || share < 0 || share > 1) {
    return BadLine(line, "expected hit_share <share in [0, 1]> [carried]");
  }
  f->flags.erase(words[1]);
  const bool carried = TakeFlag(f, "carried");
  const absl::Status taken = AllTaken(line, *f);
  if (!taken.ok()) return taken;
  runs->hit_share = share;
  runs->hit_share_carried = carried;
  return absl::OkStatus();
}

}  // namespace

std::string TreeText(const TreeRuns& runs) {
  std::string text = LevelTargetsText(runs.targets);
  if (runs.deepest_unfiltered) text += "host deepest_unfiltered\n";
  for (const RunCensus& run : runs.l0_tables) text += "L0 " + RunCensusText(run) + "\n";
  for (size_t level = 1; level < runs.levels.size(); ++level) {
    absl::StrAppendFormat(&text, "L%d %s\n", level, RunCensusText(runs.levels[level]));
  }
  if (runs.last_flush_keys > 0) {
    absl::StrAppendFormat(&text, "last_flush keys=%d\n", runs.last_flush_keys);
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

absl::Status TreeTextReader::Read(std::string_view line) {
  std::vector<std::string> words = absl::StrSplit(absl::string_view(line.data(), line.size()),
                                                  absl::ByAnyChar(" \t"), absl::SkipEmpty());
  if (words.empty()) return absl::NotFoundError("an empty line");
  const std::string word = words[0];
  const bool is_level = IsLevelWord(word);
  if (!is_level && word != "targets" && word != "host" && word != "last_flush" &&
      word != "blocks" && word != "hit_share" && word != "misses" && word != "traffic" &&
      word != "traffic_table") {
    return absl::NotFoundError(absl::StrFormat("'%s' is no tree line's word", word));
  }
  int level = 0;
  if (is_level && !ParseLevelWord(word, &level)) {
    return BadLine(line, absl::StrFormat("levels go from L0 to L%d", kDeepestTextLevel));
  }
  // L0 and traffic_table lines are one a table; the others one a tree.
  const bool once = level > 0 || (!is_level && word != "traffic_table");
  if (once && given_.count(word) > 0) return BadLine(line, word + " given twice");
  const absl::Status read = ReadLine(line, word, level, words);
  if (read.ok() && once) given_.insert(word);
  return read;
}

absl::Status TreeTextReader::ReadLine(std::string_view line, const std::string& word, int level,
                                      const std::vector<std::string>& words) {
  const bool is_level = IsLevelWord(word);
  const size_t first_field = word == "traffic_table" ? 2 : 1;
  if (words.size() < first_field) return BadLine(line, "expected a level");
  LineFields f;
  for (size_t i = first_field; i < words.size(); ++i) {
    const size_t eq = words[i].find('=');
    const std::string name = words[i].substr(0, eq);
    if (eq == std::string::npos ? !f.flags.emplace(name, true).second
                                : !f.values.emplace(name, words[i].substr(eq + 1)).second) {
      return BadLine(line, name + " given twice");
    }
  }
  if (is_level) {
    RunCensus run;
    absl::Status read = ReadRun(line, &f, &run);
    if (read.ok()) read = CheckRun(line, run);
    if (!read.ok()) return read;
    if (level == 0) {
      runs_.l0_tables.push_back(run);
      return absl::OkStatus();
    }
    if (runs_.levels.size() <= static_cast<size_t>(level)) runs_.levels.resize(level + 1);
    runs_.levels[level] = run;
    return absl::OkStatus();
  }
  if (word == "traffic_table") {
    return ReadTableTraffic(line, words.size() > 1 ? words[1] : "", &f, &traffic_);
  }
  if (word == "traffic") {
    double gets = 0;
    const absl::Status read = TakeAll(line, &f, {{"gets", &gets}});
    if (!read.ok()) return read;
    if (traffic_ == nullptr) traffic_ = std::make_shared<TreeTraffic>();
    traffic_->gets = gets;
    return read;
  }
  if (word == "hit_share") return ReadHitShare(line, words, &f, &runs_);
  if (word == "host") {
    runs_.deepest_unfiltered = TakeFlag(&f, "deepest_unfiltered");
    return AllTaken(line, f);
  }
  if (word == "last_flush") {
    uint64_t keys = 0;
    const absl::Status read = TakeAll(line, &f, {{"keys", &keys}});
    if (read.ok()) runs_.last_flush_keys = keys;
    return read;
  }
  if (word == "targets") {
    LevelTargets targets;
    const absl::Status read = ReadTargets(line, &f, &targets);
    if (read.ok()) runs_.targets = targets;
    return read;
  }
  if (word == "blocks") {
    BlockShape blocks;
    absl::Status read = ReadBlocks(line, &f, &blocks);
    if (read.ok() && !blocks.known()) read = BadLine(line, "entries=0: blocks of no entries");
    if (read.ok()) runs_.blocks = blocks;
    return read;
  }
  MissWindow misses;  // "misses"
  const absl::Status read = ReadMisses(line, &f, &misses);
  if (read.ok()) runs_.observed_misses = misses;
  return read;
}

TreeRuns TreeTextReader::Tree() const {
  TreeRuns runs = runs_;
  if (traffic_ != nullptr) runs.traffic = std::make_shared<const TreeTraffic>(*traffic_);
  return runs;
}

}  // namespace sstfilter

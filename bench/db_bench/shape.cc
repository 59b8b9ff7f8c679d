#include "bench/db_bench/shape.h"

#include <algorithm>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace sstfilter::db_bench {

namespace {

using Kind = ShapeStep::Kind;

ShapeStep Do(Kind kind) {
  ShapeStep s;
  s.kind = kind;
  return s;
}
ShapeStep Fill(int every = 1, int offset = 0) {
  ShapeStep s = Do(Kind::kFill);
  s.every = every, s.offset = offset;
  return s;
}
ShapeStep Overwrite(double memtables, double from = 0, double to = 1) {
  ShapeStep s = Do(Kind::kOverwrite);
  s.memtables = memtables, s.from = from, s.to = to;
  return s;
}
ShapeStep Measure(std::string_view label, int every = 1) {
  ShapeStep s = Do(Kind::kMeasure);
  s.label = label, s.every = every;
  return s;
}

// An L0 burst: twelve memtables of overwrites with compactions off, so that
// each becomes an L0 table of its own.
constexpr double kBurstMemtables = 12;

// Leveled: the fill read young, with compactions off where it left them,
// then settled.
std::vector<ShapeStep> YoungThenSettled() {
  return {Fill(),
          Do(Kind::kCompactionsOff),
          Do(Kind::kWait),
          Measure("young"),
          Do(Kind::kCompactionsOn),
          Do(Kind::kFlush),
          Do(Kind::kWait),
          Measure("settled")};
}

// Skewed traffic: a settled tree read and overwritten in rounds, measured
// after each. A round reads absent keys drawn by the shape's traffic
// (--round_reads: 1M by default, of which RocksDB samples ~1000), then
// overwrites kRoundMemtables memtables of keys drawn uniformly (~8% of the
// keys), which push about that much into the bottom level's compactions,
// rewriting ~10x as much there: each round rewrites a good part of the tree
// with the traffic known.
constexpr double kRoundMemtables = 8;
constexpr std::string_view kRoundLabels[] = {"round 1", "round 2", "round 3", "round 4",
                                             "round 5"};
constexpr std::string_view kShiftLabels[] = {"shift+1", "shift+2", "shift+3", "shift+4",
                                             "shift+5"};

// `steps`, then a measure point before any rewrite (`start`) and one after
// each round (`labels`).
std::vector<ShapeStep> ReadAndRewrite(std::vector<ShapeStep> steps, std::string_view start,
                                      const std::string_view (&labels)[5]) {
  steps.push_back(Do(Kind::kRead));
  steps.push_back(Measure(start));
  for (std::string_view label : labels) {
    steps.push_back(Overwrite(kRoundMemtables));
    steps.push_back(Do(Kind::kFlush));
    steps.push_back(Do(Kind::kWait));
    steps.push_back(Do(Kind::kRead));
    steps.push_back(Measure(label));
  }
  return steps;
}

TreeShape SkewShape(std::string_view name, std::string_view history, double theta) {
  TreeShape shape{name, history, "level", true,
                  ReadAndRewrite({Fill(), Do(Kind::kFlush), Do(Kind::kWait)}, "settled",
                                 kRoundLabels)};
  shape.traffic.zipf_theta = theta;
  shape.in_all = false;
  return shape;
}

void AddSkewShapes(std::vector<TreeShape>* shapes) {
  shapes->push_back(SkewShape("skew_uniform",
                              "a settled tree read by uniform absent-key Gets, then 5 rounds of "
                              "reads and overwrites: the control",
                              0));
  shapes->push_back(SkewShape("skew_zipf_0.8",
                              "as skew_uniform, Gets zipfian (0.8) over 1000 key ranges", 0.8));
  shapes->push_back(SkewShape("skew_zipf_0.99",
                              "as skew_uniform, Gets zipfian (0.99, YCSB's) over 1000 key ranges",
                              0.99));
  shapes->push_back(SkewShape("skew_zipf_1.2",
                              "as skew_uniform, Gets zipfian (1.2) over 1000 key ranges", 1.2));
  TreeShape recent = SkewShape("skew_recent",
                               "as skew_uniform, Gets by recency: next to the keys written "
                               "last (scattered: the writes are)",
                               0);
  recent.traffic.recency = true;
  shapes->push_back(std::move(recent));
  TreeShape shift = SkewShape("skew_shift",
                              "as skew_zipf_0.99; then the hot ranges move, and 5 more rounds",
                              0.99);
  shift.steps.push_back(Do(Kind::kShift));
  shift.steps = ReadAndRewrite(std::move(shift.steps), "shifted", kShiftLabels);
  shapes->push_back(std::move(shift));
}

std::vector<TreeShape> MakeShapes() {
  std::vector<TreeShape> shapes;
  shapes.push_back({"leveled_dynamic",
                    "leveled, levels sized from the bottom: the fill read young (compactions off "
                    "where it left them), then settled",
                    "level", true, YoungThenSettled()});
  shapes.push_back({"leveled_static",
                    "leveled, levels sized from the top (7.8's default): young, then settled",
                    "level", false, YoungThenSettled()});
  shapes.push_back({"universal",
                    "universal compaction: read with compactions running right after the fill, "
                    "then off once the running ones end",
                    "universal",
                    false,
                    {Fill(), Measure("running"), Do(Kind::kCompactionsOff), Do(Kind::kWait),
                     Measure("off")}});
  shapes.push_back({"fifo",
                    "FIFO compaction: every table in L0, none dropped",
                    "fifo",
                    false,
                    {Fill(), Do(Kind::kFlush), Do(Kind::kWait), Measure("settled")}});
  shapes.push_back({"l0_burst",
                    "a settled tree, then 12 memtables of overwrites with compactions off",
                    "level",
                    true,
                    {Fill(), Do(Kind::kFlush), Do(Kind::kWait), Do(Kind::kCompactionsOff),
                     Overwrite(kBurstMemtables), Do(Kind::kFlush), Do(Kind::kWait),
                     Measure("burst")}});
  shapes.push_back({"reopen_wal",
                    "a settled tree closed with its last memtable only in the WAL and reopened "
                    "(the recovery flush), then 12 memtables of overwrites with compactions off",
                    "level",
                    true,
                    {Fill(), Do(Kind::kWait), Do(Kind::kReopen), Do(Kind::kCompactionsOff),
                     Do(Kind::kWait), Measure("reopened"), Overwrite(kBurstMemtables),
                     Do(Kind::kFlush), Do(Kind::kWait), Measure("burst")}});
  shapes.push_back({"growth",
                    "a tree growing 4x under writes spread over the key space, read at 1x, 2x "
                    "and 4x with its compactions running",
                    "level",
                    true,
                    {Fill(4, 0), Measure("1x", 4), Fill(4, 2), Measure("2x", 2), Fill(2, 1),
                     Measure("4x")}});
  shapes.push_back({"shape_change",
                    "a settled tree, then 40 memtables of overwrites into the lowest quarter of "
                    "the keys with compactions running: read at once, then settled",
                    "level",
                    true,
                    {Fill(), Do(Kind::kFlush), Do(Kind::kWait), Overwrite(40, 0, 0.25),
                     Measure("burst"), Do(Kind::kFlush), Do(Kind::kWait), Measure("settled")}});
  AddSkewShapes(&shapes);
  return shapes;
}

}  // namespace

std::vector<std::string_view> TreeShape::Points() const {
  std::vector<std::string_view> points;
  for (const ShapeStep& step : steps) {
    if (step.kind == Kind::kMeasure) points.push_back(step.label);
  }
  return points;
}

const std::vector<TreeShape>& AllShapes() {
  static const auto* shapes = new std::vector<TreeShape>(MakeShapes());
  return *shapes;
}

std::string ShapeNames() {
  return absl::StrJoin(AllShapes(), ", ", [](std::string* out, const TreeShape& shape) {
    out->append(shape.name);
  });
}

absl::StatusOr<std::vector<const TreeShape*>> FindShapes(std::string_view list) {
  std::vector<const TreeShape*> found;
  if (list == "all" || list == "skewed") {
    for (const TreeShape& shape : AllShapes()) {
      if (shape.in_all == (list == "all")) found.push_back(&shape);
    }
    return found;
  }
  const std::vector<std::string> names = absl::StrSplit(std::string(list), ',');
  for (const std::string& name : names) {
    const auto& all = AllShapes();
    const auto it = std::find_if(all.begin(), all.end(),
                                 [name](const TreeShape& shape) { return shape.name == name; });
    if (it == all.end()) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "--shapes: unknown shape '%s'; expected all, skewed, or some of %s", name,
          ShapeNames()));
    }
    if (std::find(found.begin(), found.end(), &*it) != found.end()) {
      return absl::InvalidArgumentError(
          absl::StrFormat("--shapes: shape '%s' is listed twice", name));
    }
    found.push_back(&*it);
  }
  return found;
}

}  // namespace sstfilter::db_bench

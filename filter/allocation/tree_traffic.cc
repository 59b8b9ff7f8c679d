#include "filter/allocation/tree_traffic.h"

#include <algorithm>

namespace sstfilter {

namespace {

// What `tables` (one level's, by smallest key; or L0's, in any order) saw
// of [lo, hi], the evidence it rests on, its share were Gets spread like
// the keys, and the sampled Gets it drew.
struct RangeSeen {
  double share = 0, evidence = 0, uniform = 0, sampled = 0;
};

RangeSeen LevelShareOf(const std::vector<TableTraffic>& tables, const std::string& lo,
                       const std::string& hi, bool sorted) {
  auto it = tables.begin();
  if (sorted) {
    // The first table that ends at or after lo.
    it = std::partition_point(tables.begin(), tables.end(),
                              [&](const TableTraffic& t) { return t.range.largest < lo; });
  }
  RangeSeen seen;
  for (; it != tables.end(); ++it) {
    if (sorted && hi < it->range.smallest) break;
    const double part = RangeShare(it->range, lo, hi);
    seen.share += it->share * part;
    seen.evidence += it->evidence * part;
    seen.uniform += it->uniform * part;
    seen.sampled += it->sampled * part;
  }
  return seen;
}

RangeSeen SeenAt(const TreeTraffic& traffic, int level, const std::string& lo,
                 const std::string& hi) {
  if (level == 0) return LevelShareOf(traffic.l0, lo, hi, /*sorted=*/false);
  if (level < 0 || level >= static_cast<int>(traffic.levels.size())) return {};
  return LevelShareOf(traffic.levels[static_cast<size_t>(level)], lo, hi, /*sorted=*/true);
}

// The share of `gets` a table (or tables) of `evidence` at `uniform`
// lived through: evidence = exposure x uniform.
double LivedShare(double evidence, double uniform, double gets) {
  return uniform > 0 && gets > 0 ? evidence / (uniform * gets) : 0;
}

}  // namespace

double TreeTraffic::ShareOf(const std::string& lo, const std::string& hi) const {
  RangeSeen best = LevelShareOf(l0, lo, hi, /*sorted=*/false);
  for (const std::vector<TableTraffic>& level : levels) {
    const RangeSeen seen = LevelShareOf(level, lo, hi, /*sorted=*/true);
    if (seen.evidence > best.evidence || (best.evidence == 0 && seen.share > best.share)) {
      best = seen;
    }
  }
  return best.share;
}

double TreeTraffic::ShareAt(int level, const std::string& lo, const std::string& hi) const {
  return SeenAt(*this, level, lo, hi).share;
}

double TreeTraffic::LivedAt(int level, const std::string& lo, const std::string& hi) const {
  const RangeSeen seen = SeenAt(*this, level, lo, hi);
  return LivedShare(seen.evidence, seen.uniform, gets);
}

const TableTraffic* TreeTraffic::L0Table(uint64_t file_number) const {
  for (const TableTraffic& t : l0) {
    if (t.file_number == file_number) return &t;
  }
  return nullptr;
}

double TreeTraffic::Lived(const TableTraffic& table) const {
  return LivedShare(table.evidence, table.uniform, gets);
}

double TreeTraffic::SampledAt(int level, const std::string& lo, const std::string& hi) const {
  return SeenAt(*this, level, lo, hi).sampled;
}

double UniformShare(double run_reach, double table_keys, double run_keys) {
  return run_keys > 0 ? run_reach * table_keys / run_keys : 0;
}

}  // namespace sstfilter

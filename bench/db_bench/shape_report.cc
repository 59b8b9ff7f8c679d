#include "bench/db_bench/shape_report.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "bench/db_bench/report.h"
#include "nlohmann/json.hpp"

namespace sstfilter::db_bench {

namespace {

// "L0 5/L4 2/L6 104": the live tables per level holding any.
std::string TreeText(const FilterSizes& tables) {
  std::vector<std::string> levels;
  for (size_t level = 0; level < tables.by_level.size(); ++level) {
    const uint64_t files = tables.by_level[level].files;
    if (files > 0) levels.push_back(absl::StrFormat("L%d %d", level, files));
  }
  return levels.empty() ? "-" : absl::StrJoin(levels, "/");
}

std::string Ratio(double value, double reference, const char* format) {
  return reference > 0 ? absl::StrFormat(format, value / reference) : "-";
}

}  // namespace

ShapesTable::ShapesTable(std::vector<std::string> policies) : policies_(std::move(policies)) {
  size_t policy = 6;
  for (const std::string& p : policies_) policy = std::max(policy, p.size());
  widths_ = {15, 14, policy, 24, 10, 7, 9, 6, 9, 9, 6, 9, 9, 11, 6, 11};
}

std::string ShapesTable::Row(const std::vector<std::string>& cells) const {
  std::string out = "|";
  for (size_t i = 0; i < cells.size(); ++i) {
    absl::StrAppendFormat(&out, " %-*s |", static_cast<int>(widths_[i]), cells[i]);
  }
  return out + "\n";
}

std::string ShapesTable::Header() const {
  std::string out = Row({"shape", "point", "policy", "tree (tables per level)", "bits/entry",
                         "/ref", "FP/absent", "/ref", "model", "optimum", "/opt", "model/opt",
                         "us/absent", "present blk", "us/Get", "rewrote/DB"});
  std::vector<std::string> rule;
  for (size_t width : widths_) rule.push_back(std::string(width, '-'));
  return out + Row(rule);
}

std::string ShapesTable::Rows(const std::vector<PointResult>& results) const {
  std::vector<std::string> points;  // In the shape's order.
  for (const PointResult& r : results) {
    if (std::find(points.begin(), points.end(), r.point) == points.end()) points.push_back(r.point);
  }
  std::string out;
  for (const std::string& point : points) {
    const PointResult* reference = nullptr;
    for (const PointResult& r : results) {
      if (r.point == point && r.policy == policies_.front()) reference = &r;
    }
    for (const std::string& policy : policies_) {
      for (const PointResult& r : results) {
        if (r.point != point || r.policy != policy) continue;
        const double bits = r.bits_per_entry(), fp = r.false_positives_per_get();
        const double ref_bits = reference ? reference->bits_per_entry() : 0;
        const double ref_fp = reference ? reference->false_positives_per_get() : 0;
        const bool projected = r.optimum.ok();
        out += Row(
            {r.shape, r.point, r.policy, TreeText(r.absent.tables), absl::StrFormat("%.2f", bits),
             Ratio(bits, ref_bits, "%.3fx"), absl::StrFormat("%.4f", fp),
             Ratio(fp, ref_fp, "%.2fx"),
             projected ? absl::StrFormat("%.4f", r.optimum->reads_today) : "-",
             projected ? absl::StrFormat("%.4f", r.optimum->reads_same_bytes) : "-",
             projected ? Ratio(fp, r.optimum->reads_same_bytes, "%.2fx") : "-",
             projected ? Ratio(r.optimum->reads_today, r.optimum->reads_same_bytes, "%.2fx") : "-",
             absl::StrFormat("%.2f", r.absent.micros_per_op()),
             absl::StrFormat("%.3f", r.present.data_block_reads_per_op()),
             absl::StrFormat("%.1f", r.present.micros_per_op()),
             r.learned_gets > 0 ? Ratio(static_cast<double>(r.rebuilt_bytes),
                                        static_cast<double>(r.db_bytes), "%.2fx")
                                : "-"});
      }
    }
  }
  return out;
}

std::string ShapesTable::Legend() const {
  return absl::StrFormat(
      "(tree: the live tables per level at the point; bits/entry: the live tables' filter bits "
      "per entry; FP/absent: false positives per absent-key Get (readmissing; data blocks read "
      "for nothing, from the block cache or the device); /ref: against %s at the same point; "
      "model: the advisor's model of the same tree's filters (sstfilter_sst --db); optimum: "
      "the advisor's optimize_levels at that tree's filter bytes; /opt: FP/absent against it; "
      "model/opt: the model against it (the allocation alone, on the tree the reads left; "
      "/opt also counts the tree's changes during the reads; on the skewed-traffic shapes "
      "model and optimum weigh each table by its own share of the shape's Gets: the optimum is "
      "access-aware allocation's, table by table); us/absent: the absent-key Gets' time; "
      "present blk, us/Get: data blocks read from the device per present-key Get "
      "(readrandom), and its time; rewrote/DB, at a point +learn (--shape_learn_gets): the "
      "bytes the census's rebuild loop wrote in the learning phase against those the DB's "
      "flushes and compactions wrote before it)\n",
      policies_.front());
}

std::string ShapesJson(const std::vector<PointResult>& results, const ShapeConfig& config) {
  nlohmann::json points = nlohmann::json::array();
  for (const PointResult& r : results) {
    nlohmann::json point = {{"shape", r.shape},
                            {"point", r.point},
                            {"policy", r.policy},
                            {"filter_bits_per_entry", r.bits_per_entry()},
                            {"false_positives_per_absent_get", r.false_positives_per_get()},
                            {"absent", ResultJson(r.absent)},
                            {"present", ResultJson(r.present)}};
    if (r.learned_gets > 0) {
      point["learning"] = {{"gets", r.learned_gets},
                           {"rebuilt_tables", r.rebuilt_tables},
                           {"rebuilt_bytes", r.rebuilt_bytes},
                           {"db_flush_and_compaction_bytes_before", r.db_bytes}};
    }
    if (r.optimum.ok()) {
      point["advisor"] = {{"modelled_false_positives_per_absent_get", r.optimum->reads_today},
                          {"optimize_levels_at_these_filter_bytes", r.optimum->reads_same_bytes}};
    } else {
      point["advisor"] = {{"error", std::string(r.optimum.status().message())}};
    }
    points.push_back(std::move(point));
  }
  const WorkloadConfig& w = config.workload;
  const nlohmann::json doc = {{"num", w.num},
                              {"key_size", w.key_size},
                              {"value_size", w.value_size},
                              {"absent_reads", config.absent_reads},
                              {"present_reads", config.present_reads},
                              {"use_direct_reads", w.use_direct_reads},
                              {"cache_size", w.cache_size},
                              {"machine", MachineJson()},
                              {"points", std::move(points)}};
  return doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace sstfilter::db_bench

#include "bench/db_bench/report.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "filter/cpu_model.h"
#include "filter/encodings.h"
#include "nlohmann/json.hpp"

namespace sstfilter::db_bench {

std::string ResultLine(const BenchmarkResult& r) {
  const std::string extra =
      r.is_read ? absl::StrFormat("(%d of %d found)", r.found, r.ops) : "";
  return absl::StrFormat("%-12s : %11.3f micros/op %d ops/sec %.3f seconds %d operations;%s%s",
                         r.name, r.micros_per_op(), static_cast<long>(r.ops_per_sec()),
                         r.seconds, r.ops, extra.empty() ? "" : " ", extra);
}

namespace {

// "1.250 filter bytes/key, 1250000 filter bytes (L0 20000, L5 120000, ...)":
// the levels holding filters, when the engine says.
std::string FilterBytesText(const BenchmarkResult& r) {
  std::vector<std::string> levels;
  for (size_t level = 0; level < r.tables.by_level.size(); ++level) {
    const LevelTables& at = r.tables.by_level[level];
    if (at.files == 0) continue;
    levels.push_back(absl::StrFormat("L%d %d in %d files", level, at.filter_bytes, at.files));
  }
  return absl::StrFormat("%.3f filter bytes/key, %d filter bytes%s", r.filter_bytes_per_key(),
                         r.filter_bytes(),
                         levels.empty() ? "" : " (" + absl::StrJoin(levels, ", ") + ")");
}

}  // namespace

namespace {

std::string FpText(const FilterChecks& checks) {
  return checks.absent() ? absl::StrFormat("%.3f%%", 100 * checks.fp_rate()) : "n/a";
}

// "\n             : fp by level L0 1.012% (30000 checks), L2 ...": the
// levels whose filters were checked, when the engine says.
std::string FpByLevelText(const BenchmarkResult& r) {
  std::vector<std::string> levels;
  const std::vector<FilterChecks>& by_level = r.counters.filter_by_level;
  for (size_t level = 0; level < by_level.size(); ++level) {
    if (by_level[level].absent() == 0) continue;
    levels.push_back(absl::StrFormat("L%d %s (%d checks)", level, FpText(by_level[level]),
                                     by_level[level].absent()));
  }
  if (levels.empty()) return "";
  return absl::StrFormat("\n%-12s : fp by level %s", "", absl::StrJoin(levels, ", "));
}

}  // namespace

std::string FilterLine(const BenchmarkResult& r) {
  if (!r.is_read) return absl::StrFormat("%-12s : %s", "", FilterBytesText(r));
  std::string filter_reads;
  if (r.counters.filter_block_reads > 0) {
    filter_reads = absl::StrFormat(", %.4f filter-block reads/op", r.filter_block_reads_per_op());
  }
  if (r.counters.index_block_reads > 0) {
    absl::StrAppendFormat(&filter_reads, ", %.4f index-block reads/op",
                          r.index_block_reads_per_op());
  }
  return absl::StrFormat(
      "%-12s : filter fp %s (%d absent-key checks), %.4f data-block reads/op%s, %s%s", "",
      FpText(r.counters.filter), r.absent_checks(), r.data_block_reads_per_op(), filter_reads,
      FilterBytesText(r), FpByLevelText(r));
}

namespace {

// Appends " | " and `text` left-aligned in `width` columns.
void AppendCell(std::string* out, const std::string& text, size_t width) {
  absl::StrAppendFormat(out, " | %-*s", static_cast<int>(width), text);
}

// A read's cell: micros/op, ratio, FP rate, data-block reads per op; a
// fill's: the first two.
std::string ResultCell(const BenchmarkResult& r, double ratio) {
  if (!r.is_read) return absl::StrFormat("%9.3f %5.2fx", r.micros_per_op(), ratio);
  const std::string fp = r.absent_checks() ? absl::StrFormat("%.3f%%", 100 * r.fp_rate()) : "-";
  return absl::StrFormat("%9.3f %5.2fx %8s %11.4f", r.micros_per_op(), ratio, fp,
                         r.data_block_reads_per_op());
}


// A run's tables at `level` after its last benchmark (none: all zero).
LevelTables TablesAt(const FilterRun& run, size_t level) {
  if (run.results.empty()) return {};
  const std::vector<LevelTables>& tables = run.results.back().tables.by_level;
  return level < tables.size() ? tables[level] : LevelTables();
}

// Per level with tables in some run: each filter's bits/key there, and its
// FP there on the last absent-key benchmark (readmissing, multireadmissing).
void AppendLevelRows(const std::vector<FilterRun>& runs, const std::vector<size_t>& widths,
                     std::string* out) {
  size_t levels = 0;
  for (const FilterRun& run : runs) {
    if (!run.results.empty()) levels = std::max(levels, run.results.back().tables.by_level.size());
  }
  for (size_t level = 0; level < levels; ++level) {
    const bool any = std::any_of(runs.begin(), runs.end(),
                                 [level](const FilterRun& run) { return TablesAt(run, level).files > 0; });
    if (!any) continue;
    absl::StrAppendFormat(out, "%-16s", absl::StrFormat("L%d bits/key fp", level));
    for (size_t i = 0; i < runs.size(); ++i) {
      const LevelTables at = TablesAt(runs[i], level);
      const double bits = at.keys ? 8.0 * at.filter_bytes / at.keys : 0;
      FilterChecks checks;
      for (const BenchmarkResult& r : runs[i].results) {
        const auto& by_level = r.counters.filter_by_level;
        if (r.is_read && r.found == 0 && level < by_level.size()) checks = by_level[level];
      }
      AppendCell(out, at.files ? absl::StrFormat("%9.2f %15s", bits, FpText(checks)) : "-",
                 widths[i]);
    }
    *out += "\n";
  }
}

// The filters' bytes per key and in total, with the total's ratio to the
// first filter's.
void AppendFilterBytesRows(const std::vector<FilterRun>& runs, const std::vector<size_t>& widths,
                           std::string* out) {
  absl::StrAppendFormat(out, "%-16s", "filter B/key");
  for (size_t i = 0; i < runs.size(); ++i) {
    const double bytes =
        runs[i].results.empty() ? 0 : runs[i].results.back().filter_bytes_per_key();
    AppendCell(out, absl::StrFormat("%.3f", bytes), widths[i]);
  }
  auto total = [](const FilterRun& run) {
    return run.results.empty() ? uint64_t{0} : run.results.back().filter_bytes();
  };
  absl::StrAppendFormat(out, "\n%-16s", "filter bytes");
  for (size_t i = 0; i < runs.size(); ++i) {
    const std::string ratio =
        total(runs[0]) > 0
            ? absl::StrFormat(" (%.3fx)", static_cast<double>(total(runs[i])) / total(runs[0]))
            : "";
    AppendCell(out, absl::StrFormat("%d%s", total(runs[i]), ratio), widths[i]);
  }
  *out += "\n";
}

}  // namespace

std::string CompareTable(const std::vector<FilterRun>& runs) {
  if (runs.empty()) return "";
  // A column per filter, as wide as its name (at least its figures).
  std::vector<size_t> widths;
  for (const FilterRun& run : runs) widths.push_back(std::max<size_t>(38, run.filter.size()));
  std::string out = absl::StrFormat("%-16s", "benchmark");
  for (size_t i = 0; i < runs.size(); ++i) AppendCell(&out, runs[i].filter, widths[i]);
  absl::StrAppendFormat(&out, "\n%-16s", "");
  for (size_t i = 0; i < runs.size(); ++i) {
    AppendCell(&out, absl::StrFormat("%9s %6s %8s %11s", "us/op", "ratio", "fp", "blk-rd/op"),
               widths[i]);
  }
  out += "\n";
  for (size_t b = 0; b < runs[0].results.size(); ++b) {
    const BenchmarkResult& base = runs[0].results[b];
    absl::StrAppendFormat(&out, "%-16s", base.name);
    for (size_t i = 0; i < runs.size(); ++i) {
      const BenchmarkResult& r = runs[i].results[b];
      const double ratio = base.micros_per_op() > 0 ? r.micros_per_op() / base.micros_per_op() : 0;
      AppendCell(&out, ResultCell(r, ratio), widths[i]);
    }
    out += "\n";
  }
  AppendFilterBytesRows(runs, widths, &out);
  AppendLevelRows(runs, widths, &out);
  out += "(ratio: micros/op relative to the first filter; fp: false positives / absent-key "
         "filter checks; blk-rd/op: data blocks read per operation; filter bytes: all live "
         "tables' filters, relative to the first filter's; Ln bits/key fp: the level's "
         "filter bits per key, and its FP on the last absent-key benchmark)\n";
  return out;
}

namespace {

nlohmann::json ChecksJson(const FilterChecks& checks) {
  return {{"absent_checks", checks.absent()}, {"fp_rate", checks.fp_rate()}};
}

}  // namespace

nlohmann::json ResultJson(const BenchmarkResult& r) {
  nlohmann::json by_level = nlohmann::json::array();
  for (const FilterChecks& checks : r.counters.filter_by_level) {
    by_level.push_back(ChecksJson(checks));
  }
  nlohmann::json tables = nlohmann::json::array();
  for (const LevelTables& at : r.tables.by_level) {
    tables.push_back({{"files", at.files}, {"keys", at.keys}, {"filter_bytes", at.filter_bytes}});
  }
  return {{"benchmark", r.name},
          {"ops", r.ops},
          {"seconds", r.seconds},
          {"micros_per_op", r.micros_per_op()},
          {"ops_per_sec", r.ops_per_sec()},
          {"found", r.found},
          {"fp_rate", r.is_read ? r.fp_rate() : 0.0},
          {"data_block_reads_per_op", r.data_block_reads_per_op()},
          {"filter_block_reads_per_op", r.filter_block_reads_per_op()},
          {"index_block_reads_per_op", r.index_block_reads_per_op()},
          {"filter_checks_by_level", std::move(by_level)},
          {"filter_bytes_per_key", r.filter_bytes_per_key()},
          {"filter_bytes", r.filter_bytes()},
          {"tables_by_level", std::move(tables)}};
}

nlohmann::json MachineJson() {
  nlohmann::json kernels = nlohmann::json::object();
  for (const auto& [encoding, level] : EncodingSimdLevels()) kernels[encoding] = level;
  return {{"cpu", CpuModelName()}, {"kernels", std::move(kernels)}, {"simd_cap", SimdCapNote()}};
}

std::string ToJson(const std::vector<FilterRun>& runs, const WorkloadConfig& c) {
  nlohmann::json filters = nlohmann::json::array();
  for (const FilterRun& run : runs) {
    nlohmann::json results = nlohmann::json::array();
    for (const BenchmarkResult& r : run.results) results.push_back(ResultJson(r));
    filters.push_back({{"filter", run.filter}, {"results", std::move(results)}});
  }
  const nlohmann::json doc = {{"num", c.num},
                              {"reads", c.reads >= 0 ? c.reads : c.num},
                              {"key_size", c.key_size},
                              {"value_size", c.value_size},
                              {"batch_size", c.batch_size},
                              {"threads", c.threads},
                              {"partition_index_and_filters", c.partition_index_and_filters},
                              {"use_direct_reads", c.use_direct_reads},
                              {"cache_index_and_filter_blocks", c.cache_index_and_filter_blocks},
                              {"cache_size", c.cache_size},
                              {"final_compaction", c.compact_after_fill},
                              {"machine", MachineJson()},
                              {"runs", std::move(filters)}};
  // Invalid UTF-8 in a filter string is replaced, not thrown about.
  return doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace sstfilter::db_bench

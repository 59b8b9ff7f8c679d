#include "bench/db_bench/report.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
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
  for (size_t level = 0; level < r.filter_bytes_by_level.size(); ++level) {
    if (r.filter_bytes_by_level[level] == 0) continue;
    levels.push_back(absl::StrFormat("L%d %d", level, r.filter_bytes_by_level[level]));
  }
  return absl::StrFormat("%.3f filter bytes/key, %d filter bytes%s", r.filter_bytes_per_key,
                         r.filter_bytes,
                         levels.empty() ? "" : " (" + absl::StrJoin(levels, ", ") + ")");
}

}  // namespace

std::string FilterLine(const BenchmarkResult& r) {
  if (!r.is_read) return absl::StrFormat("%-12s : %s", "", FilterBytesText(r));
  const std::string fp = r.absent_checks() ? absl::StrFormat("%.3f%%", 100 * r.fp_rate()) : "n/a";
  return absl::StrFormat("%-12s : filter fp %s (%d absent-key checks), %.4f data-block reads/op, "
                         "%s",
                         "", fp, r.absent_checks(), r.data_block_reads_per_op(),
                         FilterBytesText(r));
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
  absl::StrAppendFormat(&out, "%-16s", "filter B/key");
  for (size_t i = 0; i < runs.size(); ++i) {
    const double bytes = runs[i].results.empty() ? 0 : runs[i].results.back().filter_bytes_per_key;
    AppendCell(&out, absl::StrFormat("%.3f", bytes), widths[i]);
  }
  // Totals after the last benchmark, and their ratio to the first filter's.
  auto total = [](const FilterRun& run) {
    return run.results.empty() ? uint64_t{0} : run.results.back().filter_bytes;
  };
  absl::StrAppendFormat(&out, "\n%-16s", "filter bytes");
  for (size_t i = 0; i < runs.size(); ++i) {
    const std::string ratio =
        total(runs[0]) > 0
            ? absl::StrFormat(" (%.3fx)", static_cast<double>(total(runs[i])) / total(runs[0]))
            : "";
    AppendCell(&out, absl::StrFormat("%d%s", total(runs[i]), ratio), widths[i]);
  }
  out += "\n(ratio: micros/op relative to the first filter; fp: false positives / absent-key "
         "filter checks; blk-rd/op: data blocks read per operation; filter bytes: all live "
         "tables' filters, relative to the first filter's)\n";
  return out;
}

namespace {

nlohmann::json ResultJson(const BenchmarkResult& r) {
  return {{"benchmark", r.name},
          {"ops", r.ops},
          {"seconds", r.seconds},
          {"micros_per_op", r.micros_per_op()},
          {"ops_per_sec", r.ops_per_sec()},
          {"found", r.found},
          {"fp_rate", r.is_read ? r.fp_rate() : 0.0},
          {"data_block_reads_per_op", r.data_block_reads_per_op()},
          {"filter_bytes_per_key", r.filter_bytes_per_key},
          {"filter_bytes", r.filter_bytes},
          {"filter_bytes_by_level", r.filter_bytes_by_level}};
}

}  // namespace

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
                              {"runs", std::move(filters)}};
  // Invalid UTF-8 in a filter string is replaced, not thrown about.
  return doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace sstfilter::db_bench

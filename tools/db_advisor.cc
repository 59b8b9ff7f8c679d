#include "tools/db_advisor.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "filter/allocation/filters_by_run.h"
#include "filter/allocation/run_allocation.h"
#include "filter/allocation/tree_projection.h"
#include "filter/encoding_id.h"
#include "filter/fp_target.h"
#include "filter/plan/cache_budget.h"
#include "rocksdb/db.h"
#include "table/census/dir_file.h"
#include "table/census/level_moves.h"
#include "table/rocksdb/registration.h"
#include "tools/cache_advice.h"
#include "tools/child_guard.h"
#include "tools/live_tables.h"
#include "tools/rebuild_advice.h"
#include "tools/sst_tool.h"
#include "tools/traffic_report.h"
#include "tools/tree_case.h"

namespace sstfilter {

namespace {

// The bits_per_key setting of `encoding` that spends `bits` per key.
double SettingSpending(EncodingId encoding, double bits) {
  double lo = 0.5, hi = 100;
  for (int i = 0; i < 40; ++i) {
    const double mid = (lo + hi) / 2;
    (EncodingRunModel(encoding, kNominalFilterKeys, mid).uniform_bits < bits ? lo : hi) = mid;
  }
  return hi;
}

// The kinds of filter a row of the report lists the most of; more are
// counted ("and 2 more").
constexpr size_t kKindsShown = 4;

// A row's filters: `column` names their kind, or counts the kinds; when
// they are of several kinds, or spend bits/key more than 10% apart, `spread`
// shows how (the range and median of the tables' bits/key, and the tables
// of each kind, most first).
struct RowFilters {
  std::string column, spread;
};

RowFilters FiltersOfRow(const std::vector<TreeRun>& runs, size_t begin, size_t end) {
  std::map<std::string, size_t> tables;
  std::vector<double> bits;
  for (size_t i = begin; i < end; ++i) {
    for (const TableFilters& t : runs[i].tables) {
      ++tables[t.kind];
      if (t.keys > 0) {
        bits.push_back(8.0 * static_cast<double>(t.filter_bytes) / static_cast<double>(t.keys));
      }
    }
  }
  RowFilters row;
  row.column = tables.size() == 1 ? tables.begin()->first
                                  : absl::StrFormat("mixed: %d kinds", tables.size());
  std::sort(bits.begin(), bits.end());
  const bool bits_differ = !bits.empty() && bits.back() > 1.1 * bits.front();
  if (tables.size() == 1 && !bits_differ) return row;
  if (!bits.empty()) {
    row.spread = absl::StrFormat("bits/key %.1f-%.1f (median %.1f)", bits.front(), bits.back(),
                                 bits[bits.size() / 2]);
  }
  if (tables.size() == 1) return row;
  std::vector<std::pair<std::string, size_t>> kinds(tables.begin(), tables.end());
  std::stable_sort(kinds.begin(), kinds.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  absl::StrAppendFormat(&row.spread, " over %d kinds: ", kinds.size());
  for (size_t i = 0; i < kinds.size() && i < kKindsShown; ++i) {
    absl::StrAppendFormat(&row.spread, "%s%s x%d", i ? ", " : "", kinds[i].first, kinds[i].second);
  }
  if (kinds.size() > kKindsShown) {
    absl::StrAppendFormat(&row.spread, " and %d more", kinds.size() - kKindsShown);
  }
  return row;
}

// The report of one column family: `runs` of its readable tables;
// `unreadable`, one line for each of the others; `shares`, the lookups
// sampled (nullptr: no summary).
void PrintRuns(const std::string& cf, const std::vector<TreeRun>& runs, bool bytewise,
               const std::vector<std::string>& unreadable, const TableShares* shares) {
  uint64_t keys = 0, bytes = 0, tables = 0;
  for (const TreeRun& r : runs) {
    keys += r.keys(), bytes += r.filter_bytes(), tables += r.tables.size();
  }
  absl::PrintF("column family '%s': %d tables, %d keys, %d filter bytes (%.2f bits/key)\n", cf,
               tables, keys, bytes, keys ? 8.0 * bytes / keys : 0.0);
  if (!unreadable.empty()) {
    absl::PrintF("incomplete: the totals cover %d of %d tables; these could not be read:\n",
                 tables, tables + unreadable.size());
    for (const std::string& line : unreadable) absl::PrintF("  %s\n", line);
  }
  if (runs.empty()) return;
  absl::PrintF("%-5s %6s %10s %12s %8s  %-36s %9s %6s %10s\n", "level", "tables", "keys",
               "filter bytes", "bits/key", "filter", "fp", "reach", "blocks/Get");
  for (size_t i = 0; i < runs.size();) {
    // L0's tables share a row; each is a run of its own.
    size_t end = i + 1;
    while (runs[i].level == 0 && end < runs.size() && runs[end].level == 0) ++end;
    uint64_t n = 0, b = 0, count = 0;
    double reach = 0, reads = 0, fp_weighted = 0;
    for (size_t j = i; j < end; ++j) {
      const TreeRun& r = runs[j];
      n += r.keys(), b += r.filter_bytes(), count += r.tables.size();
      reach += r.reach, reads += r.reach * r.fp_rate();
      fp_weighted += static_cast<double>(r.keys()) * r.fp_rate();
    }
    const RowFilters filters = FiltersOfRow(runs, i, end);
    absl::PrintF("L%-4d %6d %10d %12d %8.2f  %-36s %8.3f%% %6.2f %10.4f\n", runs[i].level, count, n,
                 b, n ? 8.0 * b / n : 0.0, filters.column,
                 n ? 100 * fp_weighted / n : 0.0, reach, reads);
    if (!filters.spread.empty()) absl::PrintF("      %s\n", filters.spread);
    i = end;
  }
  const std::vector<RunToday> today = RunsToday(runs);
  if (today.empty()) return;
  const TreeProjection p = ProjectOptimizeLevels(today);
  absl::PrintF("%-5s %6d %10d %12d %8.2f  %-36s %9s %6s %10.4f\n", "all", tables, keys, bytes,
               keys ? 8.0 * bytes / keys : 0.0, "", "", "", p.reads_today);
  if (bytes == 0) {
    // No filter bytes to spend elsewhere: a projection at 0 bits/key says nothing.
    absl::PrintF("optimize_levels: the tables have no filter bytes to spend; give the column "
                 "family a policy (sstfilter.bloom:10:banded:optimize_levels) to project one\n");
    return;
  }
  const EncodingId bottom = today.back().encoding;
  absl::PrintF(
      "optimize_levels at these filter bytes (sstfilter.bloom:%.3g:%s:optimize_levels): "
      "%.4f data blocks per absent Get, %.2fx fewer\n",
      SettingSpending(bottom, keys ? 8.0 * bytes / keys : 10), EncodingName(bottom),
      p.reads_same_bytes, p.reads_same_bytes > 0 ? p.reads_today / p.reads_same_bytes : 0);
  if (p.bytes_for_same_reads.has_value()) {
    absl::PrintF("optimize_levels at today's %.4f blocks per absent Get: %.3fx the filter bytes\n",
                 p.reads_today, *p.bytes_for_same_reads);
  }
  if (shares != nullptr) PrintTraffic(runs, *shares);
  absl::PrintF(
      "(fp: the filters' modelled FP; reach: the share of absent keys whose key falls in the "
      "level's tables' ranges, per L0 table summed; blocks/Get: data blocks an absent-key Get "
      "reads for the level's false positives, from the block cache or the device)\n");
  if (!bytewise) {
    absl::PrintF("note: the comparator is not bytewise: every run's reach is taken as 1\n");
  }
}

// The cache the report assumes: --cache_mb, else the DB's LOG's; nullopt:
// neither (the section says how to give it), an error: the LOG could not
// be read.
absl::StatusOr<std::optional<AdvisedCache>> CacheOf(const std::string& dir,
                                                    const CacheQuestion& question) {
  if (question.cache_mb.has_value()) {
    return AdvisedCache{*question.cache_mb * 1024 * 1024, 0.5,
                        "--cache_mb; RocksDB's default high-priority pool"};
  }
  return CacheFromLog(dir);
}

// --hit_share, else the one the DB's Gets gave its census, else
// the assumed one.
AdvisedHitShare HitShareOf(const CacheQuestion& question, const TrafficSummary* traffic) {
  AdvisedHitShare advised;
  advised.share = HitShareFor(question.hit_share,
                              traffic != nullptr ? traffic->hit_share : std::nullopt,
                              /*carried=*/false, &advised.from);
  return advised;
}

// Every column family's report; the exit status.
int Report(const std::string& dir, std::vector<FamilyTables> families,
           const CacheQuestion& question, DbOutput output) {
  const absl::StatusOr<std::optional<AdvisedCache>> logged = CacheOf(dir, question);
  const std::optional<AdvisedCache> cache = logged.ok() ? *logged : std::nullopt;
  const std::string cache_unknown =
      logged.ok() ? "the DB's LOG does not record one"
                  : absl::StrFormat("its LOG: %s", PrintableExcerpt(logged.status().message(), 400));
  // The lookups the serving process sampled, if its census left them.
  const absl::StatusOr<std::optional<TrafficSummary>> summary = ReadTrafficSummary(dir);
  // In a case's text, what is not the case is a comment.
  const char* note = output == DbOutput::kTreeCase ? "# " : "";
  if (!summary.ok()) absl::PrintF("%slookups: not shown: %s\n", note, summary.status().message());
  const TrafficSummary* traffic = summary.ok() && summary->has_value() ? &**summary : nullptr;
  const TableShares* known = traffic != nullptr && !traffic->tables.empty() ? &traffic->tables
                                                                             : nullptr;
  const AdvisedHitShare hit_share = HitShareOf(question, traffic);
  // The levels whose move the census's rebuild loop (which rewrites the
  // default column family's tables) carries through.
  const LevelMoveTimes moves =
      traffic != nullptr ? MovesCarried(traffic->level_moves, std::chrono::system_clock::now(),
                                        std::chrono::steady_clock::now())
                         : LevelMoveTimes();
  size_t live = 0, unread = 0;
  for (FamilyTables& family : families) {
    live += family.read.size() + family.unreadable.size(), unread += family.unreadable.size();
    if (family.read.empty() && family.unreadable.empty()) {
      absl::PrintF("%scolumn family '%s': no tables\n", note, family.name);
      continue;
    }
    const std::vector<TreeRun> runs = GroupIntoRuns(std::move(family.read), family.bytewise);
    if (output == DbOutput::kTreeCase) {
      if (!runs.empty()) {
        absl::PrintF("%s", TreeCase(family.name, runs, cache, hit_share,
                                    family.bytewise ? traffic : nullptr, family.host));
      }
      continue;
    }
    PrintRuns(family.name, runs, family.bytewise, family.unreadable, known);
    // The loop rewrites the default column family's tables only.
    const LevelMoveTimes family_moves =
        family.name == rocksdb::kDefaultColumnFamilyName ? moves : LevelMoveTimes();
    if (family.name == rocksdb::kDefaultColumnFamilyName && family.policy.has_value() &&
        family.policy->per_level.optimize_levels && !family.policy->per_level.cache_aware) {
      PrintFpRebuildAdvice(runs, *family.policy, family_moves, family.bytewise ? known : nullptr,
                           known != nullptr ? &traffic->exposures : nullptr, family.host);
    }
    if (cache.has_value()) {
      PrintCacheAdvice(runs, *cache, hit_share, family.bytewise ? known : nullptr, family_moves,
                       family.policy, family.host);
    } else {
      absl::PrintF(
          "\nblock cache: not known (%s); --cache_mb=N shows "
          "the device reads per Get its filters cost in a block cache of N MiB\n",
          cache_unknown);
    }
    if (OutputClosed()) break;  // Nobody reads the rest.
  }
  if (unread == 0) return 0;
  return Fail(kExitBadFile,
              absl::StrFormat("--db=%s: the report is incomplete: %d of its %d live tables could "
                              "not be read (named in it)",
                              dir, unread, live));
}

}  // namespace

int AdviseDb(const std::string& dir, bool verify_checksums, const CacheQuestion& cache,
             DbOutput output) {
  EnsureRocksDbFilterPoliciesRegistered();
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(dir, error);
  if (status.type() == std::filesystem::file_type::not_found) {
    return Fail(kExitBadFile, "no such directory: " + dir);
  }
  if (error) return Fail(kExitBadFile, absl::StrFormat("%s: %s", dir, error.message()));
  if (status.type() != std::filesystem::file_type::directory) {
    return Fail(kExitBadFile, "not a directory: " + dir);
  }
  absl::StatusOr<std::vector<FamilyTables>> families = ReadLiveTables(dir, verify_checksums);
  if (!families.ok()) return Fail(kExitBadFile, std::string(families.status().message()));
  return Report(dir, *std::move(families), cache, output);
}

}  // namespace sstfilter

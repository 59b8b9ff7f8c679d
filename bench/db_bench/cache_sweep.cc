#include "bench/db_bench/cache_sweep.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "bench/db_bench/compare_list.h"
#include "bench/db_bench/progress.h"
#include "bench/db_bench/rebuild_settle.h"
#include "bench/db_bench/run_dir.h"
#include "filter/allocation/filters_by_run.h"
#include "filter/cache_model/traffic_popularity.h"
#include "filter/filter_options.h"
#include "tools/live_tables.h"

namespace sstfilter::db_bench {

namespace {

double MissingShare(GetKind kind) {
  switch (kind) {
    case GetKind::kAbsent:
      return 1;
    case GetKind::kPresent:
      return 0;
    case GetKind::kMixed:
      return 0.5;
  }
  return 1;
}

absl::Status InRow(const CacheRow& row, const std::string& step, const absl::Status& s) {
  return absl::Status(s.code(), absl::StrFormat("%s: %s: %s", row.label, step, s.message()));
}

// Whether the row's filters depend on the block cache it is built with.
bool SizedForCache(const CacheRow& row) { return absl::StrContains(row.filter, kCacheAwareName); }

int64_t CacheBytes(const WorkloadConfig& workload, double fraction) {
  return std::max<int64_t>(
      1, std::llround(fraction * static_cast<double>(BloomTenFilterBytes(workload.num))));
}

// The keys to read: `kind`'s, drawn by the sweep's traffic (`draw` picks
// the stream).
ReadKeys KeysFor(const CacheSweepConfig& config, GetKind kind, uint64_t draw) {
  ReadKeys keys;
  keys.count = config.workload.num;
  keys.missing_share = MissingShare(kind);
  keys.traffic = config.traffic;
  keys.draw = draw;
  return keys;
}

// CacheSweepConfig::live_gets: every key written again in random order, as
// the fill writes them (BenchDb::WriteKeys), with Gets between the parts.
absl::Status Relive(const CacheSweepConfig& config, const CacheRow& row, BenchDb* db) {
  const int64_t num = config.workload.num;
  std::vector<uint64_t> order(static_cast<size_t>(num));
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), std::mt19937_64(config.workload.seed + 1));
  const ReadKeys keys = KeysFor(config, config.kinds[0], 1000);
  for (int round = 0; round < CacheSweepConfig::kLiveRounds; ++round) {
    ProgressLine(absl::StrFormat("%s: live tree, round %d of %d: %d %s Gets, then writes",
                                 row.label, round + 1, CacheSweepConfig::kLiveRounds,
                                 config.live_gets, GetKindName(config.kinds[0])));
    absl::StatusOr<BenchmarkResult> read = db->RunRead("readrandom", keys, config.live_gets);
    if (!read.ok()) return InRow(row, "live Gets", read.status());
    const size_t begin = order.size() * round / CacheSweepConfig::kLiveRounds;
    const size_t end = order.size() * (round + 1) / CacheSweepConfig::kLiveRounds;
    if (absl::Status s = db->WriteKeys("writes", order, begin, end); !s.ok()) {
      return InRow(row, "live tree", s);
    }
  }
  absl::Status s = db->engine().Flush();
  if (s.ok()) s = db->engine().WaitForCompactions();
  return s.ok() ? absl::OkStatus() : InRow(row, "live writes", s);
}

// Builds the row's DB at `path`, with the block cache of `fraction`: every
// key written in random order, the tree left as the fill's flushes and
// compactions leave it. Returns the bytes they wrote.
absl::StatusOr<uint64_t> Build(const CacheSweepConfig& config, const CacheRow& row,
                               const std::string& path, double fraction) {
  WorkloadConfig build = config.workload;
  build.cache_size = CacheBytes(build, fraction);
  build.use_existing_db = false;
  build.optimize_filters_for_hits = row.hits;
  absl::StatusOr<std::unique_ptr<BenchDb>> db = BenchDb::Open(row.filter, path, build);
  if (!db.ok()) return InRow(row, "opening", db.status());
  absl::StatusOr<BenchmarkResult> fill = (*db)->Run("fillrandom");
  if (!fill.ok()) return InRow(row, "fillrandom", fill.status());
  if (config.live_gets > 0) {
    if (absl::Status s = Relive(config, row, db->get()); !s.ok()) return s;
  }
  const WrittenBytes written = (*db)->engine().Written();
  return written.flushes + written.compactions;
}

// How the sweep's Gets spread over the key space (key number over `keys`),
// for the cache model: a slice per hot range, or else (by recency)
// kPopularitySlices equal ones, each with the share of the draws in it.
constexpr int64_t kPopularitySlices = 4096;
KeyPopularity PopularityOf(const LookupTraffic& traffic, int64_t keys) {
  if (traffic.uniform() || keys <= 0) return {};
  const KeyDraw draw(traffic, keys);
  const int64_t n = std::min<int64_t>(traffic.recency ? kPopularitySlices : traffic.ranges, keys);
  std::vector<KeyPopularity::Slice> slices;
  for (int64_t i = 0; i < n; ++i) {
    const auto lo = static_cast<uint64_t>(i * keys / n), hi = static_cast<uint64_t>((i + 1) * keys / n);
    if (hi > lo) slices.push_back({static_cast<double>(hi - lo), draw.ShareOf(lo, hi - 1)});
  }
  return KeyPopularity(slices);
}

// The default column family's runs.
absl::StatusOr<std::vector<TreeRun>> LiveRuns(const std::string& path) {
  absl::StatusOr<std::vector<FamilyTables>> families = ReadLiveTables(path, false);
  if (!families.ok()) return families.status();
  for (const FamilyTables& family : *families) {
    if (family.name == "default") return GroupIntoRuns(family.read, family.bytewise);
  }
  return absl::NotFoundError(absl::StrFormat("%s has no default column family", path));
}

// How the sweep's Gets spread over the key space as the tables of `runs`
// see them: each table's share of the draws.
KeyPopularity TablesPopularity(const LookupTraffic& traffic, const WorkloadConfig& workload,
                               const std::vector<TreeRun>& runs) {
  if (traffic.uniform()) return {};
  const KeyDraw draw(traffic, workload.num);
  return PopularityOf(TrafficOf(runs, [&](const TableFilters& t) {
    return draw.ShareOf(KeyNumber(t.smallest, workload.key_size),
                        KeyNumber(t.largest, workload.key_size));
  }));
}

// Each level's filters, false positives and block-cache misses in `r`.
std::vector<LevelReads> LevelsOf(const BenchmarkResult& r) {
  const EngineCounters& c = r.counters;
  const size_t count = std::max({r.tables.by_level.size(), c.filter_by_level.size(),
                                 c.block_misses_by_level.size()});
  std::vector<LevelReads> levels;
  for (size_t level = 0; level < count; ++level) {
    LevelReads at;
    at.level = static_cast<int>(level);
    if (level < r.tables.by_level.size()) at.filter_bytes = r.tables.by_level[level].filter_bytes;
    if (level < c.filter_by_level.size()) {
      const FilterChecks& checks = c.filter_by_level[level];
      at.false_positives = r.PerOp(checks.positive - checks.true_positive);
    }
    if (level < c.block_misses_by_level.size()) {
      at.block_misses = r.PerOp(c.block_misses_by_level[level]);
    }
    if (at.filter_bytes > 0 || at.block_misses > 0) levels.push_back(at);
  }
  return levels;
}

// What the cache model is given for a point: the live tables' blocks, the
// sweep's Gets spread as drawn and as the tables' shares see them.
struct PointModel {
  std::vector<RunBlocks> blocks;
  CacheWorkload model, by_tables;
};

absl::StatusOr<PointModel> ModelOf(const CacheSweepConfig& config, const WorkloadConfig& read,
                                   const std::string& path) {
  absl::StatusOr<std::vector<TreeRun>> runs = LiveRuns(path);
  if (!runs.ok()) return runs.status();
  PointModel m;
  for (const TreeRun& run : *runs) m.blocks.push_back(BlocksOf(run));
  m.model.capacity_bytes = static_cast<double>(read.cache_size);
  m.model.popularity = PopularityOf(config.traffic, read.num);
  m.by_tables = m.model;
  m.by_tables.popularity = TablesPopularity(config.traffic, read, *runs);
  return m;
}

// The `k`-th kind's point: warmed up, then measured.
absl::StatusOr<CachePoint> Measure(const CacheSweepConfig& config, const CacheRow& row,
                                   const WorkloadConfig& read, double fraction, size_t k,
                                   PointModel m, BenchDb* db) {
  const GetKind kind = config.kinds[k];
  ReadKeys keys = KeysFor(config, kind, 1 + 2 * k);
  if (config.warm_reads > 0) {
    absl::StatusOr<BenchmarkResult> warm = db->RunRead("readrandom", keys, config.warm_reads);
    if (!warm.ok()) return InRow(row, "warming up", warm.status());
  }
  keys.draw = 2 + 2 * k;
  absl::StatusOr<BenchmarkResult> r = db->RunRead("readrandom", keys, config.reads);
  if (!r.ok()) return InRow(row, "reading", r.status());
  CachePoint p;
  p.row = row.label;
  p.cache_bytes = read.cache_size;
  p.fraction = fraction;
  p.kind = kind;
  p.found = r->ops ? static_cast<double>(r->found) / static_cast<double>(r->ops) : 0;
  p.filter_reads = r->filter_block_reads_per_op();
  p.index_reads = r->index_block_reads_per_op();
  p.data_reads = r->data_block_reads_per_op();
  p.micros = r->micros_per_op();
  p.filter_bytes = r->filter_bytes();
  m.model.hit_share = m.by_tables.hit_share = p.found;
  p.model = PredictReads(m.blocks, m.model);
  p.model_by_tables = PredictReads(m.blocks, m.by_tables);
  p.traffic = config.traffic.Describe();
  p.levels = LevelsOf(*r);
  return p;
}

// CacheSweepConfig::learn_gets at a point: the Gets, the rewrites they set
// off, the point measured again.
absl::StatusOr<CachePoint> Learn(const CacheSweepConfig& config, const CacheRow& row,
                                 const WorkloadConfig& read, const std::string& path,
                                 double fraction, uint64_t load_bytes, BenchDb* db) {
  ProgressLine(absl::StrFormat("%s: cache %.3gx, learning from %d %s Gets", row.label, fraction,
                               config.learn_gets, GetKindName(config.kinds[0])));
  // A DB instance that only reads gives its census no event, and so no
  // rebuild loop (table/census/rebuild_loop.h): a key of its own, flushed.
  absl::Status given = db->engine().Write({std::string(read.key_size, '\xff')}, "learn");
  if (given.ok()) given = db->engine().Flush();
  if (!given.ok()) return InRow(row, "the flush that starts the census's loop", given);
  const WrittenBytes before = db->engine().Written();
  absl::StatusOr<BenchmarkResult> gets =
      db->RunRead("readrandom", KeysFor(config, config.kinds[0], 1000), config.learn_gets);
  if (!gets.ok()) return InRow(row, "learning Gets", gets.status());
  if (absl::Status s =
          SettleRebuilds(db, CacheSweepConfig::kLearnQuiet, CacheSweepConfig::kLearnLimit);
      !s.ok()) {
    return InRow(row, "the rewrites", s);
  }
  absl::StatusOr<PointModel> m = ModelOf(config, read, path);
  if (!m.ok()) return InRow(row, "reading its tables", m.status());
  absl::StatusOr<CachePoint> p = Measure(config, row, read, fraction, 0, *std::move(m), db);
  if (!p.ok()) return p.status();
  const WrittenBytes after = db->engine().Written();
  p->row = absl::StrFormat("%s, after %d Gets", row.label, config.learn_gets);
  p->learned_gets = config.learn_gets;
  p->rebuilt_tables = after.rebuilt_tables - before.rebuilt_tables;
  p->rebuilt_bytes = after.rebuilt - before.rebuilt;
  p->load_bytes = load_bytes;
  return p;
}

// One cache size: the DB reopened with that cache (and its compactions
// finished), then each kind of Gets, warmed up and measured; and where
// the sweep learns, the learning phase and its point.
absl::Status ReadAtCache(const CacheSweepConfig& config, const CacheRow& row,
                         const std::string& path, double fraction, uint64_t load_bytes,
                         std::vector<CachePoint>* points) {
  WorkloadConfig read = config.workload;
  read.use_existing_db = true;
  read.optimize_filters_for_hits = row.hits;
  read.cache_size = CacheBytes(read, fraction);
  absl::StatusOr<std::unique_ptr<BenchDb>> db = BenchDb::Open(row.filter, path, read);
  if (!db.ok()) return InRow(row, "reopening", db.status());
  if (absl::Status s = (*db)->engine().WaitForCompactions(); !s.ok()) {
    return InRow(row, "waiting for compactions", s);
  }
  absl::StatusOr<PointModel> m = ModelOf(config, read, path);
  if (!m.ok()) return InRow(row, "reading its tables", m.status());
  for (size_t k = 0; k < config.kinds.size(); ++k) {
    ProgressLine(absl::StrFormat("%s: cache %.3gx, %s Gets", row.label, fraction,
                                 GetKindName(config.kinds[k])));
    absl::StatusOr<CachePoint> p = Measure(config, row, read, fraction, k, *m, db->get());
    if (!p.ok()) return p.status();
    points->push_back(*std::move(p));
  }
  if (config.learn_gets <= 0) return absl::OkStatus();
  absl::StatusOr<CachePoint> learned =
      Learn(config, row, read, path, fraction, load_bytes, db->get());
  if (!learned.ok()) return learned.status();
  points->push_back(*std::move(learned));
  return absl::OkStatus();
}

std::string Mib(double bytes) { return absl::StrFormat("%.2f", bytes / (1 << 20)); }

// "L5 1.60 MiB: FP 0.0180 misses 0.3100; L6 ..." (per Get; no comma,
// so the CSV's last column is one field).
std::string LevelsText(const std::vector<LevelReads>& levels) {
  std::vector<std::string> parts;
  for (const LevelReads& at : levels) {
    parts.push_back(absl::StrFormat("L%d %s MiB: FP %.4f misses %.4f", at.level,
                                    Mib(static_cast<double>(at.filter_bytes)),
                                    at.false_positives, at.block_misses));
  }
  return absl::StrJoin(parts, "; ");
}

// "rewrote 12 tables, 96.0 MiB: 0.25x what its load's flushes and
// compactions wrote" (a point after a learning phase).
std::string RebuiltText(const CachePoint& p) {
  const std::string share =
      p.load_bytes > 0 ? absl::StrFormat(": %.2fx what its load's flushes and compactions wrote",
                                         static_cast<double>(p.rebuilt_bytes) /
                                             static_cast<double>(p.load_bytes))
                       : "";
  return absl::StrFormat("rewrote %d tables, %s MiB%s", p.rebuilt_tables,
                         Mib(static_cast<double>(p.rebuilt_bytes)), share);
}

// The model's reads and their ratio to the measured.
std::string ModelColumn(const CachePoint& p) {
  const GetReads& m = p.model;
  auto ratio = [&](const GetReads& r) {
    return p.reads() > 0 ? absl::StrFormat("%.2fx", r.total() / p.reads()) : "-";
  };
  const std::string by_tables =
      p.traffic == "uniform" ? "" : absl::StrCat("; by tables' shares ", ratio(p.model_by_tables));
  return absl::StrFormat("%.3f + %.3f + %.3f = %.3f (%s%s)", m.filter, m.index, m.data, m.total(),
                         ratio(m), by_tables);
}

}  // namespace

const char* GetKindName(GetKind kind) {
  switch (kind) {
    case GetKind::kAbsent:
      return "absent";
    case GetKind::kPresent:
      return "present";
    case GetKind::kMixed:
      return "mixed";
  }
  return "?";
}

absl::StatusOr<std::vector<GetKind>> ParseSweepGets(const std::string& list) {
  std::vector<GetKind> kinds;
  for (const std::string& name : std::vector<std::string>(absl::StrSplit(list, ','))) {
    const GetKind all[] = {GetKind::kAbsent, GetKind::kPresent, GetKind::kMixed};
    const auto* kind = std::find_if(std::begin(all), std::end(all),
                                    [&](GetKind k) { return name == GetKindName(k); });
    if (kind == std::end(all)) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "--sweep_gets: '%s' is not a kind of Gets; expected absent, present or mixed", name));
    }
    kinds.push_back(*kind);
  }
  return kinds;
}

absl::StatusOr<std::vector<CacheRow>> ParseCacheRows(const std::string& list) {
  std::vector<CacheRow> rows;
  for (const std::string& given : SplitTopLevel(list)) {
    absl::string_view entry = given;
    const bool hits = absl::ConsumeSuffix(&entry, kHitsSuffix);
    absl::StatusOr<std::vector<std::string>> filters = ExpandCompareList(std::string(entry));
    if (!filters.ok()) return filters.status();
    for (const std::string& filter : *filters) {
      rows.push_back({hits ? absl::StrCat(filter, kHitsSuffix) : filter, filter, hits});
    }
  }
  if (rows.empty()) return absl::InvalidArgumentError("--compare: no policy to sweep");
  return rows;
}

absl::StatusOr<std::vector<double>> ParseCacheFractions(const std::string& list) {
  std::vector<double> fractions;
  for (const std::string& field : std::vector<std::string>(absl::StrSplit(list, ','))) {
    double f = 0;
    if (!absl::SimpleAtod(field, &f) || !(f > 0 && f <= 64)) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "--cache_sweep: '%s' is not a fraction in (0, 64] of bloomfilter:10's filter bytes",
          field));
    }
    if (!fractions.empty() && f <= fractions.back()) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "--cache_sweep=%s: expected increasing fractions, as in 0.125,0.5,2", list));
    }
    fractions.push_back(f);
  }
  return fractions;
}

int64_t BloomTenFilterBytes(int64_t keys) { return keys * 10 / 8; }

absl::Status RunCacheSweep(const CacheSweepConfig& config,
                           const std::function<void(const std::vector<CachePoint>&)>& row_done) {
  for (size_t i = 0; i < config.rows.size(); ++i) {
    const CacheRow& row = config.rows[i];
    absl::StatusOr<RunDir> dir = RunDir::Make(config.db, i == 0 ? "" : absl::StrCat(i));
    if (!dir.ok()) return dir.status();
    // A cache_aware row's DB is built at each cache, the others' once.
    const bool per_cache = SizedForCache(row);
    std::vector<CachePoint> points;
    uint64_t load_bytes = 0;
    for (size_t f = 0; f < config.fractions.size(); ++f) {
      const double fraction = config.fractions[f];
      // A learning phase rewrites the DB: each cache's point learns on one built afresh.
      if (f == 0 || per_cache || config.learn_gets > 0) {
        ProgressLine(absl::StrFormat("%s (policy %d of %d): building its DB%s", row.label, i + 1,
                                     config.rows.size(),
                                     per_cache ? absl::StrFormat(" at cache %.3gx", fraction)
                                               : ""));
        absl::StatusOr<uint64_t> built = Build(config, row, dir->path(), fraction);
        if (!built.ok()) return built.status();
        load_bytes = *built;
      }
      if (absl::Status s = ReadAtCache(config, row, dir->path(), fraction, load_bytes, &points);
          !s.ok()) {
        return s;
      }
    }
    row_done(points);
  }
  return absl::OkStatus();
}

std::string CacheSweepTable(const std::vector<CachePoint>& points) {
  // Rows in the order they came, by kind and cache.
  std::map<std::pair<int, int64_t>, std::vector<const CachePoint*>> groups;
  size_t width = 6;
  for (const CachePoint& p : points) {
    groups[{static_cast<int>(p.kind), p.cache_bytes}].push_back(&p);
    width = std::max(width, p.row.size());
  }
  std::string out;
  for (const auto& [key, group] : groups) {
    const CachePoint& first = *group.front();
    absl::StrAppendFormat(&out,
                          "\n%s Gets, block cache %s MiB (%.3gx bloomfilter:10's filters):\n",
                          GetKindName(first.kind), Mib(static_cast<double>(first.cache_bytes)),
                          first.fraction);
    absl::StrAppendFormat(&out, "  %-*s  %10s  %-38s  %9s  %6s  %s\n", static_cast<int>(width),
                          "policy", "filter MiB", "filter + index + data = device reads/Get",
                          "us/Get", "found", "model: filter + index + data = reads (/measured)");
    for (const CachePoint* p : group) {
      absl::StrAppendFormat(
          &out, "  %-*s  %10s  %.3f + %.3f + %.3f = %-14.3f  %9.1f  %5.1f%%  %s\n",
          static_cast<int>(width), p->row, Mib(static_cast<double>(p->filter_bytes)),
          p->filter_reads, p->index_reads, p->data_reads, p->reads(), p->micros, 100 * p->found,
          ModelColumn(*p));
      if (!p->levels.empty()) {
        absl::StrAppendFormat(&out, "  %-*s  by level, per Get: %s\n", static_cast<int>(width), "",
                              LevelsText(p->levels));
      }
      if (p->learned_gets > 0) {
        absl::StrAppendFormat(&out, "  %-*s  %s\n", static_cast<int>(width), "", RebuiltText(*p));
      }
    }
  }
  return out;
}

std::string CacheSweepCsv(const std::vector<CachePoint>& points) {
  std::string out =
      "policy,cache_bytes,cache_fraction,gets,found,filter_reads,index_reads,data_reads,"
      "device_reads,micros,filter_bytes,model_filter_reads,model_index_reads,model_data_reads,"
      "model_reads,model_by_tables_reads,learned_gets,rebuilt_tables,rebuilt_bytes,load_bytes,"
      "traffic,by_level\n";
  for (const CachePoint& p : points) {
    absl::StrAppendFormat(
        &out,
        "\"%s\",%d,%g,%s,%.4f,%.5f,%.5f,%.5f,%.5f,%.2f,%d,%.5f,%.5f,%.5f,%.5f,%.5f,%d,%d,%d,%d,"
        "\"%s\",\"%s\"\n",
        absl::StrReplaceAll(p.row, {{"\"", "\"\""}}), p.cache_bytes, p.fraction,
        GetKindName(p.kind), p.found, p.filter_reads, p.index_reads, p.data_reads, p.reads(),
        p.micros, p.filter_bytes, p.model.filter, p.model.index, p.model.data, p.model.total(),
        p.model_by_tables.total(), p.learned_gets, p.rebuilt_tables, p.rebuilt_bytes, p.load_bytes,
        p.traffic, LevelsText(p.levels));
  }
  return out;
}

}  // namespace sstfilter::db_bench

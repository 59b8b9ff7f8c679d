// The census listener's part in the rebuild loop (rebuild_loop.h): each DB
// instance's loop started at its first event and stopped as it closes,
// the table it rewrites next (off_plan_tables.h, filter/plan/rebuild_gain.h),
// and each rewrite counted in the census's tree as a compaction job of its
// own. The listener's other parts: census_listener.cc.
#include <algorithm>
#include <chrono>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "filter/allocation/tree_runs.h"
#include "filter/allocation/tree_traffic.h"
#include "filter/plan/plan_text.h"
#include "filter/plan/tables_against_plan.h"
#include "rocksdb/env.h"
#include "table/census/census_listener.h"
#include "table/census/level_moves.h"
#include "table/census/off_plan_tables.h"

namespace sstfilter {

namespace {

// An L0 table rewritten in place counts, while its job runs, as L0's
// output (CensusTree::Runs: the last L0 run), whose reach no reading has
// measured: it takes the table's own, with which the loop weighed it
// (tables_against_plan.h plans it among L0's runs at that reach).
void CarryL0Reach(uint64_t number, TreeRuns* runs) {
  const TableTraffic* own = runs->traffic != nullptr ? runs->traffic->L0Table(number) : nullptr;
  if (own != nullptr && !runs->l0_tables.empty()) runs->l0_tables.back().reach = own->uniform;
}

// What a rewrite is for, as the DB's LOG says it.
std::string RebuildText(const TableRebuild& rebuild, double gets_per_second) {
  const TableAgainstPlan& t = rebuild.table;
  auto bits = [](double b) {
    return b > 0 ? absl::StrFormat("%.1f bits/key", b) : std::string("no filter");
  };
  const std::string what =
      rebuild.saving >= 0
          ? absl::StrFormat("saves %.4f device reads per Get at %.0f Gets/s", rebuild.saving,
                            gets_per_second)
          : absl::StrFormat(
                "frees %.1f KiB of filters for the plan's budget, adding %.4f device "
                "reads per Get",
                -AddedBits(rebuild) / (8 * 1024.0), -rebuild.saving);
  return absl::StrFormat(
      "table #%d at L%d, %s as built, %s by today's plan: %s, rewriting %.1f MiB", t.number,
      t.level, bits(t.built_bits), bits(t.planned_bits), what, t.file_bytes / (1024.0 * 1024));
}

}  // namespace

void LevelCensusListener::StartLoop(rocksdb::DB* db, const DbTree& tree) {
  if (tree.closed) return;
  Loop& loop = loops_[db->GetName()];
  if (loop.stopping || (loop.loop != nullptr && loop.session == tree.session)) return;
  // Another instance's loop stopped as it closed: it ended already.
  if (loop.loop != nullptr) loop.loop->Stop();
  loop.session = tree.session;
  RebuildLoop::Owner owner;
  owner.pick = [this, db, session = tree.session] { return PickRebuild(db, session); };
  auto job = std::make_shared<int>(0);  // The rewrite under way's job id.
  owner.begin = [this, db, job](const RebuildTarget& target) {
    const std::optional<PolicySizing> sizing = SizingOfDb(db);  // Not under mu_: reads options.
    std::lock_guard<std::mutex> lock(mu_);
    *job = next_rebuild_job_--;
    BeginRebuild(db, *job, target, sizing);
  };
  owner.end = [this, db, job](const RebuildTarget& target, const rocksdb::Status& status,
                              const rocksdb::CompactionJobInfo& info) {
    EndRebuild(db, *job, target, status, info);
  };
  loop.loop = std::make_unique<RebuildLoop>(db, std::move(owner));
}

void LevelCensusListener::StopLoops(const std::string& db_path, const std::string& session) {
  std::vector<std::pair<std::string, std::unique_ptr<RebuildLoop>>> stopping;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& [path, loop] : loops_) {
      if (loop.loop != nullptr && (db_path.empty() || path == db_path) &&
          (session.empty() || loop.session == session)) {
        loop.stopping = true;
        stopping.emplace_back(path, std::move(loop.loop));
      }
    }
  }
  for (auto& [path, loop] : stopping) loop->Stop();  // Its callbacks take mu_: not held here.
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& [path, loop] : stopping) loops_[path].stopping = false;
}

double LevelCensusListener::GetRate(DbTree* tree) {
  return tree->get_readings.Add({std::chrono::steady_clock::now(), tree->gets_reached});
}

std::optional<RebuildTarget> LevelCensusListener::PickRebuild(rocksdb::DB* db,
                                                              const std::string& session) {
  const std::optional<PolicySizing> sizing = SizingOfDb(db);
  const double pace =
      sizing.has_value()
          ? rebuild_bytes_per_second_.value_or(RebuildBytesPerSecond(sizing->options))
          : 0;
  // rebuild_mb_s:0, not a policy that rebuilds, or held (HoldRebuilds).
  if (pace <= 0 || rebuilds_held_) return std::nullopt;
  std::vector<rocksdb::LiveFileMetaData> files;
  std::optional<TableRebuild> next;
  double rate = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    const auto it = trees_.find(db->GetName());
    if (it == trees_.end() || it->second.session != session || it->second.closed) {
      return std::nullopt;
    }
    next = TakeQueued(&it->second);
    rate = it->second.rebuilds.gets_per_second();
  }
  if (!next.has_value()) {
    Reckoning reckoning = Reckon(db, session, *sizing, &files);
    if (reckoning.worth.empty()) return std::nullopt;
    next = reckoning.worth.front();
    reckoning.worth.erase(reckoning.worth.begin());
    rate = reckoning.gets_per_second;
    std::lock_guard<std::mutex> lock(mu_);
    const auto it = trees_.find(db->GetName());
    if (it == trees_.end() || it->second.session != session || it->second.closed) {
      return std::nullopt;
    }
    it->second.rebuilds.Reset(std::move(reckoning.worth), rate, reckoning.rocksdb_jobs,
                              reckoning.at);
  } else {
    db->GetLiveFilesMetaData(&files);
  }
  for (const rocksdb::LiveFileMetaData& f : files) {
    if (f.file_number != next->table.number || f.being_compacted) continue;
    std::lock_guard<std::mutex> lock(mu_);
    const auto it = trees_.find(db->GetName());
    if (it == trees_.end() || it->second.session != session || it->second.closed) break;
    if (next->table.share <= 0) {  // A level's move, not one range's (WaitsForTheOtherMove).
      it->second.level_moves[next->table.level] = {
          next->table.planned_bits < next->table.built_bits, std::chrono::steady_clock::now()};
      WriteTrafficFile(&it->second);  // Now if the level's move is new: the next instance's too.
    }
    return RebuildTarget{f.file_number,           f.name, f.level, next->table.planned_bits, pace,
                         RebuildText(*next, rate)};
  }
  return std::nullopt;  // Gone since: the next pick takes the queue's next.
}

std::optional<TableRebuild> LevelCensusListener::TakeQueued(DbTree* tree) {
  const auto now = std::chrono::steady_clock::now();
  std::optional<TableRebuild> next;
  while ((next = tree->rebuilds.Take(tree->rocksdb_jobs, now)).has_value()) {
    if (!WaitsForTheOtherMove(tree->level_moves, *next, now)) return next;
  }
  return std::nullopt;
}

LevelCensusListener::Reckoning LevelCensusListener::Reckon(
    rocksdb::DB* db, const std::string& session, const PolicySizing& sizing,
    std::vector<rocksdb::LiveFileMetaData>* files) {
  Reckoning reckoning;
  reckoning.at = std::chrono::steady_clock::now();
  std::map<uint64_t, TableRecord> records;
  double rate = 0;
  std::map<int, bool> under_way;
  {
    std::lock_guard<std::mutex> lock(mu_);
    const auto it = trees_.find(db->GetName());
    if (it == trees_.end() || it->second.session != session || it->second.closed) return {};
    reckoning.rocksdb_jobs = it->second.rocksdb_jobs;
    // The Gets and the tree as of now, published; read afresh where a flush
    // added a table since the last reading (it would count as reached by
    // every Get).
    Update(db, /*in_step=*/!it->second.tree.ReachUnmeasured(), 0);
    ++rebuilt_[db->GetName()].reckonings;
    rate = GetRate(&it->second);
    records = records_[db->GetName()];
    for (const auto& [level, move] : it->second.level_moves) {
      if (std::chrono::steady_clock::now() - move.second < kPaybackHorizon)
        under_way[level] = move.first;
    }
  }
  if (rate <= 0) return {};
  db->GetLiveFilesMetaData(files);
  std::optional<OffPlanView> view = OffPlanTables(db, sizing, *files, records, under_way);
  if (!view.has_value()) return {};
  std::lock_guard<std::mutex> lock(mu_);
  const auto it = trees_.find(db->GetName());
  if (it == trees_.end() || it->second.session != session || it->second.closed) return {};
  DbTree& tree = it->second;
  ReckoningCounts counts;
  counts.hot_width = view->hot_width;
  // Off the plan, or weighed as a free past the slack (OverPlan).
  auto& gains = view->gains;
  std::set<uint64_t> weighed;
  for (const TableRebuild& gain : gains) weighed.insert(gain.table.number);
  counts.off_plan = static_cast<size_t>(std::count_if(
      view->tables.begin(), view->tables.end(),
      [&](const TableAgainstPlan& t) { return OffPlan(t) || weighed.count(t.number) > 0; }));
  // A table the loop wrote is off the plan only once the plan moved.
  counts.weighed = gains.size();
  gains.erase(std::remove_if(gains.begin(), gains.end(),
                             [&](const TableRebuild& gain) {
                               const auto then = tree.rebuilt_for.find(gain.table.number);
                               if (then == tree.rebuilt_for.end()) return false;
                               TableAgainstPlan moved = gain.table;
                               moved.built_bits = then->second;
                               return !OffPlan(moved);
                             }),
              gains.end());
  counts.rewritten_for_the_plan = counts.weighed - gains.size();
  const auto now = std::chrono::steady_clock::now();
  const size_t before_waits = gains.size();
  gains.erase(std::remove_if(gains.begin(), gains.end(),
                             [&](const TableRebuild& gain) {
                               return WaitsForTheOtherMove(tree.level_moves, gain, now);
                             }),
              gains.end());
  counts.waiting = before_waits - gains.size();
  counts.paying = gains.size();
  reckoning.worth = view->bits.has_value()
                        ? RebuildsWithinBudget(std::move(gains), rate, *view->bits)
                        : RebuildsWorthIt(std::move(gains), rate);
  counts.worth = reckoning.worth.size();
  if (view->bits.has_value() && view->bits->budget > 0) {
    counts.bits_held = view->bits->built / view->bits->budget;
  }
  LogReckoning(db, &tree, counts, rate);
  reckoning.gets_per_second = rate;
  // The tables to rewrite are sized for the plan, not for each other's
  // debts (CensusTree::SetPendingRewrites), from the next table built.
  std::set<uint64_t> pending;
  // L0's tables stay counted as built: the loop weighs its rewrites of
  // them against what the rest of L0 holds (fp_rebuilds.h, TreeBits).
  for (const TableRebuild& gain : reckoning.worth) {
    if (gain.table.level > 0) pending.insert(gain.table.number);
  }
  tree.tree.SetPendingRewrites(std::move(pending));
  Update(db, /*in_step=*/true, 0);
  return reckoning;
}

void LevelCensusListener::LogReckoning(rocksdb::DB* db, DbTree* tree, const ReckoningCounts& c,
                                       double gets_per_second) {
  if (c.off_plan == 0) return;
  const std::string no_room =
      c.bits_held > 0
          ? absl::StrFormat(" or finding no room in the plan's bits (the tree holds %.3fx them)",
                            c.bits_held)
          : "";
  const std::string text = absl::StrFormat(
      "%d tables off today's plan: %d held back as their level saves too little, %d rewritten "
      "by the loop for the plan, %d waiting out a move of their level the other way, %d not "
      "paying back at about %.0f Gets/s%s, %d to rewrite; the plan's spread: %s",
      c.off_plan, c.off_plan - c.weighed, c.rewritten_for_the_plan, c.waiting, c.paying - c.worth,
      gets_per_second, no_room, c.worth,
      c.hot_width < kUnsharpened ? SpreadFitText(c.hot_width)
                                 : "the tables' sampled reads, no fit sharpening them");
  const std::string key =
      absl::StrFormat("%d %d %d %d %d %.3f %.3f", c.off_plan, c.weighed, c.rewritten_for_the_plan,
                      c.waiting, c.worth, c.hot_width, c.bits_held);
  if (!tree->reckoning_log.Admit(key, c.worth, std::chrono::steady_clock::now())) return;
  rocksdb::Log(rocksdb::InfoLogLevel::INFO_LEVEL, db->GetDBOptions().info_log.get(),
               "sstfilter: rebuild loop: %s", text.c_str());
}

void LevelCensusListener::BeginRebuild(rocksdb::DB* db, int job, const RebuildTarget& target,
                                       const std::optional<PolicySizing>& sizing) {
  rocksdb::CompactionJobInfo info;
  info.cf_name = rocksdb::kDefaultColumnFamilyName;
  info.job_id = job;
  info.output_level = target.level;
  rocksdb::CompactionFileInfo input;
  input.level = target.level;
  input.file_number = target.number;
  info.input_file_infos.push_back(input);
  BeginJob(db, info);  // The census's count of the tree; no table is built under this job id.
  // RocksDB runs the rewrite as a job of its own (CompactFiles), whose
  // table is built on the census's tree, the tables to rewrite counted free
  // (SetPendingRewrites), where the gains are the cache model's. Where they
  // are the false positives' (WeighedByFalsePositives), that job takes the
  // plan's tree (FreeTree; under access_aware, the table's own level's share
  // of its range), by BeginJob where RocksDB announces the job and
  // OnTableFileCreationStarted where it does not: built on the census's,
  // whose debts the plan's tree does not hold, a rewrite landed off the plan
  // it was weighed against (0.3-1.6 bits a key after a burst with
  // compactions off) and was rewritten again at every open.
  const auto it = jobs_.find({db->GetName(), info.cf_name, job});
  if (!sizing.has_value() || !WeighedByFalsePositives(*sizing) || it == jobs_.end() ||
      it->second.runs == nullptr) {
    return;
  }
  std::shared_ptr<TreeRuns> free = FreeTree(sizing->options, *it->second.runs,
                                            sizing->cache.has_value() ? &*sizing->cache : nullptr);
  free->rewrite_level = target.level;  // Its keys stay: their share is its own level's.
  if (target.level == 0) CarryL0Reach(target.number, free.get());
  loop_rewrites_[db->GetName()] = {target.number, std::move(free)};
}

void LevelCensusListener::EndRebuild(rocksdb::DB* db, int job, const RebuildTarget& target,
                                     const rocksdb::Status& status,
                                     rocksdb::CompactionJobInfo info) {
  info.cf_name = rocksdb::kDefaultColumnFamilyName;
  info.job_id = job;
  info.status = status;
  std::string outcome = status.ok()
                            ? absl::StrFormat(": wrote %d bytes", info.stats.total_output_bytes)
                            : ": " + status.ToString();
  {
    std::lock_guard<std::mutex> lock(mu_);
    loop_rewrites_.erase(db->GetName());
    // The heirs are told before EndJob, whose reading of the tree would
    // otherwise take them for new tables that saw no Gets.
    if (status.ok()) {
      DbTree& tree = trees_[db->GetName()];
      const std::map<uint64_t, TableRecord>& records = records_[db->GetName()];
      std::map<uint64_t, double> heirs;  // By file number, its entries.
      for (const rocksdb::CompactionFileInfo& output : info.output_file_infos) {
        tree.rebuilt_for[output.file_number] = target.planned_bits;
        const auto record = records.find(output.file_number);
        heirs[output.file_number] =
            record == records.end() ? 0 : static_cast<double>(record->second.entries);
        if (record == records.end() || record->second.KeysFiltered() == 0) continue;
        outcome += absl::StrFormat(", #%d with %.1f bits/key", output.file_number,
                                   static_cast<double>(record->second.filter_bits) /
                                       static_cast<double>(record->second.KeysFiltered()));
      }
      tree.samples.Rewritten(target.number, heirs);
      Rebuilt& rebuilt = rebuilt_[db->GetName()];
      ++rebuilt.tables;
      rebuilt.bytes += info.stats.total_output_bytes;
    }
    EndJob(db, info);
  }
  rocksdb::Log(rocksdb::InfoLogLevel::INFO_LEVEL, db->GetDBOptions().info_log.get(),
               "sstfilter: %s %s%s", status.ok() ? "rebuilt" : "did not rebuild",
               target.why.c_str(), outcome.c_str());
}

LevelCensusListener::Rebuilt LevelCensusListener::RebuiltSoFar(const std::string& db_path) {
  std::lock_guard<std::mutex> lock(mu_);
  const auto it = rebuilt_.find(db_path);
  return it == rebuilt_.end() ? Rebuilt() : it->second;
}

}  // namespace sstfilter

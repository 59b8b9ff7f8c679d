#include "table/census/census_listener.h"

#include <algorithm>
#include <cstdlib>
#include <thread>
#include <utility>

#include "rocksdb/comparator.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/metadata.h"
#include "rocksdb/options.h"
#include "rocksdb/table_properties.h"
#include "table/census/carried_traffic.h"
#include "table/census/census_handoff.h"
#include "table/census/census_registry.h"
#include "table/census/level_targets.h"
#include "table/census/recovery_tree.h"
#include "table/census/traffic_file.h"

namespace sstfilter {

namespace {

bool IsBytewise(rocksdb::DB* db) {
  const rocksdb::Comparator* cmp = db->GetOptions().comparator;
  return cmp == nullptr || std::string(cmp->Name()) == "leveldb.BytewiseComparator";
}

// The number of a table file "<dir>/000123.sst"; 0 if the name is not one.
uint64_t FileNumberOf(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  const std::string name = path.substr(slash == std::string::npos ? 0 : slash + 1);
  char* end = nullptr;
  const unsigned long long number = std::strtoull(name.c_str(), &end, 10);
  return end != name.c_str() && std::string(end) == ".sst" ? number : 0;
}

// A LOG line for each column family whose Gets moved at the last reading.
void LogMoves(rocksdb::DB* db, const std::map<std::string, int>& before,
              const std::map<std::string, int>& after) {
  for (const auto& [column_family, moves] : after) {
    const auto was = before.find(column_family);
    if (was != before.end() && was->second >= moves) continue;
    rocksdb::Log(rocksdb::InfoLogLevel::INFO_LEVEL, db->GetDBOptions().info_log.get(),
                 "sstfilter: the Gets of column family %s moved: a window of at least %.0f "
                 "sampled Gets drew a level's tables unlike the Gets before it; what the "
                 "column family counted before the window now weighs %.0f%% of what it did",
                 column_family.c_str(), kMoveWindowGets, 100 * kKeptOnMove);
  }
}

}  // namespace

LevelCensusListener::~LevelCensusListener() {
  StopLoops("");  // Before anything they call goes.
  // What each DB's Gets told since the last event is written before the
  // file thread stops (files_, destroyed first, runs what waits): a DB
  // that only reads has no other event, and its listener goes with it.
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& [path, tree] : trees_) {
      if (!tree.built || tree.closed) continue;
      ObserveGets(&tree);
      WriteTrafficFile(&tree, /*closing=*/true);
    }
  }
  for (const void* db : published_) LevelCensus::Instance().Forget(db);
}

void LevelCensusListener::RecordUnseenTables(rocksdb::DB* db,
                                             const std::vector<rocksdb::LiveFileMetaData>& files) {
  std::map<uint64_t, TableRecord>& records = records_[db->GetName()];
  if (std::none_of(files.begin(), files.end(), [&](const rocksdb::LiveFileMetaData& f) {
        return f.column_family_name == rocksdb::kDefaultColumnFamilyName &&
               records.count(f.file_number) == 0;
      })) {
    return;
  }
  // Other column families' tables stay unseen: a listener has no handle to
  // ask for theirs. Read on a thread of its own: RocksDB tags the reads of a
  // flush or compaction thread as that job's (its debug builds assert the
  // tag), and these are not the job's.
  rocksdb::TablePropertiesCollection tables;
  rocksdb::Status read;
  std::thread([&] { read = db->GetPropertiesOfAllTables(&tables); }).join();
  if (!read.ok()) return;
  for (const auto& [path, props] : tables) {
    const uint64_t number = FileNumberOf(path);
    if (number != 0 && records.count(number) == 0) {
      records[number] = RecordOf(*props);
    }
  }
}

void LevelCensusListener::Rebuild(rocksdb::DB* db, DbTree* tree) {
  ObserveGets(tree);  // The Gets as of this reading (BornShares): a close's is not after Update.
  const auto start = std::chrono::steady_clock::now();
  std::vector<rocksdb::LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  // Tables from before the listener: seen at the first reading only, every
  // later one is recorded when built.
  if (!tree->built) {
    RecordUnseenTables(db, files);
    CheckPolicy(db, files, tree);
  }
  if (tree->carried.has_value()) {
    tree->samples.Carry(files, tree->carried->tables, tree->carried->exposures);
    tree->carried.reset();
  }
  const std::map<std::string, int> moves = tree->samples.Moves();
  const GetsMoment now{start, CountedGets(*tree)};
  tree->samples.Update(files, BornShares(tree->born, {tree->rebuilt, tree->rebuilt_gets}, now));
  LogMoves(db, moves, tree->samples.Moves());
  tree->born.clear();
  tree->tree.Rebuild(files, running_[db->GetName()], records_[db->GetName()], IsBytewise(db),
                     &tree->samples);
  const rocksdb::Options options = db->GetOptions();
  tree->targets =
      LevelTargetsOf(options, tree->tree.BytesPerEntry(rocksdb::kDefaultColumnFamilyName));
  tree->deepest_unfiltered = options.optimize_filters_for_hits;
  tree->built = true;
  WriteTrafficFile(tree);
  tree->work_micros = 0;
  tree->rebuilt = start;
  tree->rebuilt_gets = now.gets;
  tree->rebuild_micros =
      std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
}

void LevelCensusListener::CheckPolicy(rocksdb::DB* db,
                                      const std::vector<rocksdb::LiveFileMetaData>& files,
                                      DbTree* tree) {
  const std::map<uint64_t, TableRecord>& records = records_[db->GetName()];
  uint64_t ours = 0, tables = 0;
  for (const rocksdb::LiveFileMetaData& f : files) {
    if (f.column_family_name != rocksdb::kDefaultColumnFamilyName) continue;
    ++tables;
    const auto record = records.find(f.file_number);
    if (record != records.end() && record->second.sstfilter_filter) ++ours;
  }
  tree->policy_guard.Check(db, ours, tables);
}

LevelCensusListener::DbTree& LevelCensusListener::TreeOf(rocksdb::DB* db) {
  DbTree& tree = trees_[db->GetName()];
  std::string session;
  if (!db->GetDbSessionId(session).ok()) session.clear();
  if (!tree.built || tree.session != session) {
    if (tree.built) {  // The DB reopened: what the last instance ran is over.
      LevelCensus::Instance().Forget(tree.census_key);
      running_.erase(db->GetName());
      for (auto job = jobs_.begin(); job != jobs_.end();) {
        job = std::get<0>(job->first) == db->GetName() ? jobs_.erase(job) : std::next(job);
      }
    }
    tree = DbTree{};
    tree.session = std::move(session);
    tree.census_key = CensusKeyOf(db);
    tree.statistics = db->GetDBOptions().statistics;
    tree.answered = AnsweredGets(db);
    // The filters' answers are samples: their windows are longer.
    if (tree.statistics == nullptr && tree.answered.counted()) {
      tree.hit_share = HitShareWindow(answered_window_gets_);
    }
    ObserveGets(&tree);  // Before the first reading writes the traffic file.
    GetRate(&tree);      // The rate's first reading: the Gets as the instance opened.
    tree.file_site = TrafficFileSiteOf(db);
    tree.writes = std::make_shared<TrafficWrites>();
    tree.carry = std::make_shared<CarrySlot>();
    const uint64_t read = files_.Post(
        "read " + tree.file_site.path, [site = tree.file_site, slot = tree.carry] {
          std::optional<TrafficSummary> summary = ReadCarriedTraffic(site);
          std::lock_guard<std::mutex> lock(slot->mu);
          slot->summary = std::move(summary);
          slot->ready = true;
        });
    files_.WaitFor(read, kCarryWait);
    TakeUpCarry(&tree);
    // A new DB object: no plan of its own yet.
    LevelCensus::Instance().ForgetPlans(tree.census_key);
    Rebuild(db, &tree);
  }
  return tree;
}

void LevelCensusListener::WriteTrafficFile(DbTree* tree, bool closing) {
  const auto now = std::chrono::steady_clock::now();
  TrafficSummary summary{tree->tree.KnownShares(),
                         tree->hit_share.share(),
                         "",
                         {},
                         MovesToWrite(tree->level_moves, std::chrono::system_clock::now(), now)};
  if (summary.tables.empty() && !summary.hit_share.has_value()) return;
  std::map<int, bool> directions;
  for (const auto& [level, move] : summary.level_moves) directions[level] = move.fewer_bits;
  // Within the interval, only a summary with another hit share (a window
  // closed: at most every HitShareWindow::kWindowGets Gets), the first
  // tables' shares or a level's move begun or ended, so that a short-lived
  // process leaves what it learned and did.
  const bool news = summary.hit_share != tree->traffic_written_share ||
                    (!summary.tables.empty() && !tree->traffic_written_tables) ||
                    directions != tree->traffic_written_moves;
  if (!closing && tree->traffic_written.has_value() &&
      now - *tree->traffic_written < kTrafficFileInterval && !news) {
    return;
  }
  summary.db_identity = tree->file_site.identity;
  if (summary.db_identity.empty()) return;  // A file naming no DB is never taken up.
  for (const auto& [number, share] : summary.tables) {
    const auto seen = tree->samples.tables().find(number);
    summary.exposures[number] = seen == tree->samples.tables().end() ? 0 : seen->second.exposure;
  }
  std::string text = FormatTrafficFile(summary);
  if (closing && text == tree->traffic_written_text) return;  // Nothing new.
  tree->traffic_written = now;
  tree->traffic_written_share = summary.hit_share;
  tree->traffic_written_tables = !summary.tables.empty();
  tree->traffic_written_moves = std::move(directions);
  tree->traffic_written_text = text;
  // On the census's file thread: a flush or compaction never waits on the
  // DB's directory. A newer summary replaces one not yet written.
  files_.Post("write " + tree->file_site.path,
              [site = tree->file_site, text = std::move(text), writes = tree->writes] {
                WriteTrafficSummary(site, text, writes.get());
              });
}

bool LevelCensusListener::TakeUpCarry(DbTree* tree) {
  if (tree->carry == nullptr) return false;
  std::optional<TrafficSummary> summary;
  {
    std::lock_guard<std::mutex> lock(tree->carry->mu);
    if (!tree->carry->ready) return false;
    summary = std::move(tree->carry->summary);
  }
  tree->carry.reset();
  if (!summary.has_value()) return false;
  if (summary->hit_share.has_value()) tree->hit_share.Carry(*summary->hit_share);
  // This instance's own moves, if it made any yet, are the newer.
  for (const auto& [level, move] :
       MovesCarried(summary->level_moves, std::chrono::system_clock::now(),
                    std::chrono::steady_clock::now())) {
    tree->level_moves.emplace(level, move);
  }
  tree->carried = std::move(summary);
  return true;
}

void LevelCensusListener::ObserveGets(DbTree* tree) {
  std::optional<GetOutcomes> gets = GetOutcomesOf(tree->statistics.get());
  if (!gets.has_value() && tree->built && tree->answered.counted()) {
    const std::map<std::string, TreeRuns> runs = tree->tree.AllRuns();
    const auto family = runs.find(rocksdb::kDefaultColumnFamilyName);
    gets = tree->answered.Read(family == runs.end() ? TreeRuns() : family->second);
  }
  if (!gets.has_value()) return;
  tree->gets_reached = gets->reached;
  gets->new_filter_bytes = tree->written_filter_bytes;
  tree->hit_share.Observe(*gets);
}

GetsMoment LevelCensusListener::GetsNow(DbTree* tree) {
  ObserveGets(tree);
  return {std::chrono::steady_clock::now(), CountedGets(*tree)};
}

std::optional<uint64_t> LevelCensusListener::CountedGets(const DbTree& tree) {
  if (tree.statistics == nullptr && !(tree.built && tree.answered.counted())) return std::nullopt;
  return tree.gets_reached;
}

bool LevelCensusListener::RebuildDue(const DbTree& tree) const {
  const double paced = work_per_rebuild_ * tree.rebuild_micros;
  if (tree.work_micros >= paced) return true;
  const auto since = std::chrono::steady_clock::now() - tree.rebuilt;
  return since >= kTrafficRefresh &&
         std::chrono::duration<double, std::micro>(since).count() >= paced;
}

std::map<std::string, std::shared_ptr<const TreeRuns>> LevelCensusListener::Update(
    rocksdb::DB* db, bool in_step, double work_micros) {
  DbTree& tree = TreeOf(db);
  StartLoop(db, tree);
  ObserveGets(&tree);  // First: a rebuild writes it for the advisor.
  tree.work_micros += work_micros;
  // A traffic file read since: its tables' counts are taken up at a reading.
  if (TakeUpCarry(&tree)) in_step = false;
  if (!in_step || RebuildDue(tree)) Rebuild(db, &tree);
  const void* key = tree.census_key;
  if (std::find(published_.begin(), published_.end(), key) == published_.end()) {
    published_.push_back(key);
  }
  std::map<std::string, TreeRuns> runs = tree.tree.AllRuns();
  for (auto& [name, family] : runs) {
    family.hit_share = tree.hit_share.share();
    family.hit_share_carried = tree.hit_share.carried();
    // The misses are the DB's: a column family's own only where it is alone.
    if (runs.size() == 1) family.observed_misses = tree.hit_share.misses();
  }
  // Only the default column family's options are known: the others keep
  // no targets (their compaction style could be another).
  if (auto it = runs.find(rocksdb::kDefaultColumnFamilyName); it != runs.end()) {
    it->second.targets = tree.targets;
    it->second.deepest_unfiltered = tree.deepest_unfiltered;
  }
  return LevelCensus::Instance().Publish(key, std::move(runs));
}

void LevelCensusListener::StartJob(
    rocksdb::DB* db, const std::string& column_family, int job_id,
    const std::map<std::string, std::shared_ptr<const TreeRuns>>& published) {
  const auto it = published.find(column_family);
  jobs_[{db->GetName(), column_family, job_id}] =
      JobTree{TreeOf(db).census_key, it == published.end() || it->second == nullptr
                                   ? std::make_shared<const TreeRuns>()  // No table yet.
                                   : it->second};
}

void LevelCensusListener::OnFlushBegin(rocksdb::DB* db, const rocksdb::FlushJobInfo& info) {
  std::lock_guard<std::mutex> lock(mu_);
  DbTree& tree = TreeOf(db);
  tree.flush_starts[info.job_id] = std::chrono::steady_clock::now();
  ++tree.rocksdb_jobs;
  StartJob(db, info.cf_name, info.job_id, Update(db, true, 0));
}

void LevelCensusListener::OnFlushCompleted(rocksdb::DB* db, const rocksdb::FlushJobInfo& info) {
  std::lock_guard<std::mutex> lock(mu_);
  jobs_.erase({db->GetName(), info.cf_name, info.job_id});
  DbTree& tree = TreeOf(db);
  double micros = 0;
  if (const auto start = tree.flush_starts.find(info.job_id); start != tree.flush_starts.end()) {
    micros = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() -
                                                       start->second)
                 .count();
    tree.flush_starts.erase(start);
  }
  CensusTree::Table table{info.cf_name, 0, KeysFiltered(info.table_properties), false, 0};
  const std::map<uint64_t, TableRecord>& records = records_[db->GetName()];
  if (const auto record = records.find(info.file_number); record != records.end()) {
    table.bits_known = true, table.filter_bits = record->second.filter_bits;
  }
  tree.born[info.file_number] = GetsNow(&tree);
  Update(db, tree.tree.AddTable(info.file_number, std::move(table)), micros);
}

void LevelCensusListener::OnCompactionBegin(rocksdb::DB* db,
                                            const rocksdb::CompactionJobInfo& info) {
  std::lock_guard<std::mutex> lock(mu_);
  BeginJob(db, info);
}

void LevelCensusListener::BeginJob(rocksdb::DB* db, const rocksdb::CompactionJobInfo& info) {
  CensusTree::Compaction compaction{info.cf_name, info.output_level, {}};
  for (const rocksdb::CompactionFileInfo& input : info.input_file_infos) {
    compaction.inputs.push_back(input.file_number);
  }
  DbTree& tree = TreeOf(db);  // First: a new instance's tree forgets the last one's jobs.
  if (info.job_id >= 0) ++tree.rocksdb_jobs;  // The loop's rewrites' ids are below 0.
  if (info.cf_name == rocksdb::kDefaultColumnFamilyName) {
    const std::map<uint64_t, TableRecord>& records = records_[db->GetName()];
    uint64_t ours = 0;
    for (const uint64_t number : compaction.inputs) {
      const auto record = records.find(number);
      if (record != records.end() && record->second.sstfilter_filter) ++ours;
    }
    tree.policy_guard.BeforeCompaction(db, info.job_id, ours);
  }
  running_[db->GetName()][info.job_id] = compaction;
  const bool in_step = tree.tree.StartCompaction(info.job_id, std::move(compaction));
  StartJob(db, info.cf_name, info.job_id, Update(db, in_step, 0));
  // RocksDB's job for the loop's rewrite (CompactFiles): its table is built
  // on the tree the loop weighed it on.
  const auto rewrite = loop_rewrites_.find(db->GetName());
  if (info.job_id >= 0 && rewrite != loop_rewrites_.end() && info.input_file_infos.size() == 1 &&
      info.input_file_infos[0].file_number == rewrite->second.first) {
    jobs_[{db->GetName(), info.cf_name, info.job_id}].runs = rewrite->second.second;
  }
}

void LevelCensusListener::OnCompactionCompleted(rocksdb::DB* db,
                                                const rocksdb::CompactionJobInfo& info) {
  std::lock_guard<std::mutex> lock(mu_);
  EndJob(db, info);
}

void LevelCensusListener::EndJob(rocksdb::DB* db, const rocksdb::CompactionJobInfo& info) {
  running_[db->GetName()].erase(info.job_id);
  jobs_.erase({db->GetName(), info.cf_name, info.job_id});
  std::map<uint64_t, TableRecord>& records = records_[db->GetName()];
  std::vector<std::pair<uint64_t, CensusTree::Table>> outputs;
  for (const rocksdb::CompactionFileInfo& output : info.output_file_infos) {
    CensusTree::Table table{info.cf_name, output.level, 0, false, 0};
    if (const auto record = records.find(output.file_number); record != records.end()) {
      table.entries = record->second.KeysFiltered();
      table.bits_known = true, table.filter_bits = record->second.filter_bits;
    }
    outputs.emplace_back(output.file_number, std::move(table));
  }
  DbTree& tree = TreeOf(db);
  const bool in_step = tree.tree.FinishCompaction(info.job_id, info.status.ok(), outputs);
  if (info.status.ok()) {
    const GetsMoment now = GetsNow(&tree);
    for (const auto& output : outputs) {
      const uint64_t number = output.first;
      const auto is_it = [&](const rocksdb::CompactionFileInfo& in) {
        return in.file_number == number;
      };
      if (std::none_of(info.input_file_infos.begin(), info.input_file_infos.end(), is_it)) {
        tree.born[number] = now;
      }
    }
  }
  // The inputs are gone, but for a trivial move's: its outputs are its
  // inputs, moved down with their filters.
  if (info.status.ok()) {
    for (const rocksdb::CompactionFileInfo& input : info.input_file_infos) {
      if (std::none_of(outputs.begin(), outputs.end(),
                       [&](const auto& o) { return o.first == input.file_number; })) {
        records.erase(input.file_number);
      }
    }
  }
  Update(db, in_step, static_cast<double>(info.stats.elapsed_micros));
}

void LevelCensusListener::OnExternalFileIngested(rocksdb::DB* db,
                                                 const rocksdb::ExternalFileIngestionInfo&) {
  std::lock_guard<std::mutex> lock(mu_);
  ++TreeOf(db).rocksdb_jobs;
  Update(db, /*in_step=*/false, 0);  // Events do not say where a file went: read afresh.
}

void LevelCensusListener::OnTableFileCreationStarted(
    const rocksdb::TableFileCreationBriefInfo& info) {
  if (info.reason == rocksdb::TableFileCreationReason::kRecovery) {
    HandOffTree(nullptr, info.cf_name, ReadRecoveryTree(info.db_name, info.cf_name));
    return;
  }
  std::lock_guard<std::mutex> lock(mu_);
  const auto it = jobs_.find({info.db_name, info.cf_name, info.job_id});
  const auto rewrite = loop_rewrites_.find(info.db_name);
  const auto tree = trees_.find(info.db_name);
  if (it == jobs_.end() && info.reason == rocksdb::TableFileCreationReason::kCompaction &&
      rewrite != loop_rewrites_.end() && tree != trees_.end()) {
    // A compaction no OnCompactionBegin named: the loop's CompactFiles,
    // which RocksDB before 11 announces to no listener (one at a time a DB).
    HandOffTree(tree->second.census_key, info.cf_name, rewrite->second.second);
  } else if (it == jobs_.end()) {
    HandOffTree(nullptr, "", nullptr);  // Nothing for this table: the census then.
  } else {
    HandOffTree(it->second.census_key, info.cf_name, it->second.runs);
  }
}

void LevelCensusListener::OnTableFileCreated(const rocksdb::TableFileCreationInfo& info) {
  const uint64_t number = FileNumberOf(info.file_path);
  if (!info.status.ok() || number == 0) return;
  std::lock_guard<std::mutex> lock(mu_);
  records_[info.db_name][number] = RecordOf(info.table_properties);
  // Its filter partitions are new to the block cache (spread_fit.h).
  if (const auto tree = trees_.find(info.db_name); tree != trees_.end() && tree->second.built) {
    tree->second.written_filter_bytes += info.table_properties.filter_size;
  }
}

#if SSTFILTER_ROCKSDB_HAS_SHUTDOWN_BEGIN
void LevelCensusListener::OnDBShutdownBegin(rocksdb::DB* db) {
  // A DB whose open failed has no column family to read (RocksDB calls
  // this as it cleans one up too).
  if (db->DefaultColumnFamily() == nullptr) return;
  std::string session;
  if (!db->GetDbSessionId(session).ok()) return;
  {
    std::lock_guard<std::mutex> lock(mu_);
    const auto known = trees_.find(db->GetName());
    if (known != trees_.end() && known->second.session == session) {
      known->second.closed = true;  // No loop starts again.
    }
  }
  StopLoops(db->GetName(), session);
  std::lock_guard<std::mutex> lock(mu_);
  const auto known = trees_.find(db->GetName());
  const bool built = known != trees_.end() && known->second.built;
  // Another instance at the same path is the one the census follows (a
  // read-only or secondary instance beside it): this one is left alone.
  if (built && known->second.session != session) return;
  DbTree& tree = TreeOf(db);      // A DB that only read is first read here.
  if (built) Rebuild(db, &tree);  // Its tables' sampled reads as of now.
  ObserveGets(&tree);
  WriteTrafficFile(&tree, /*closing=*/true);
  tree.closed = true;
}
#endif

void LevelCensusListener::OnColumnFamilyHandleDeletionStarted(rocksdb::ColumnFamilyHandle* handle) {
  if (handle != nullptr && handle->GetName() == rocksdb::kDefaultColumnFamilyName) StopLoops("");
}

std::shared_ptr<rocksdb::EventListener> NewLevelCensusListener() {
  return std::make_shared<LevelCensusListener>();
}

}  // namespace sstfilter

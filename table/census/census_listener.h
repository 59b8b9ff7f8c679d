// The listener that counts the sorted runs of each column family of each
// open DB, for the per-level policy (optimize_levels,
// filter/allocation/run_allocation.h).
//
// RocksDB tells a filter policy a table's level (FilterBuildingContext) but
// not the sizes of the levels, which the allocation needs. A policy could
// assume them (a fixed growth per level), but real trees are not textbook
// ones: a young tree under level_compaction_dynamic_level_bytes=false fills
// L1 and L2 first, L0 swells after a write burst, universal compaction's
// runs have any sizes. It could count the tables it builds, but it never
// sees one deleted or moved down. So the sizes come from RocksDB's own
// metadata (DB::GetLiveFilesMetaData: every live table's level and entry
// count), read by an EventListener and kept in step with each flush and
// compaction, before its tables are built (OnFlushBegin, OnCompactionBegin)
// and after (OnFlushCompleted, OnCompactionCompleted), as the tree the
// running compactions leave (census_tree.h, live_reach.h). Each event
// changes the counts of the tables it names; the metadata is read afresh
// only as often as its cost allows (kWorkPerRebuild) and after an ingestion.
//
// Each flush or compaction job's tables are sized for the tree of the job's
// start, handed to the policy on the building thread (census_handoff.h);
// the WAL recovery flush at DB::Open, which comes before any of those
// events, reads the tree from the DB's files (recovery_tree.h). The listener
// also records each table's filter bits as RocksDB reports them
// (OnTableFileCreated), so the policy knows what the tables it is not
// rewriting hold and can keep the live tree within its budget, and the
// default column family's level targets from its options
// (filter/allocation/steady_tree.h), and the share of its Gets that find
// their key (observed_hit_share.h: from the DB's statistics, else from its
// filters' sampled answers, answered_gets.h), which cache_aware plans for
// unless the policy id states one. A reopened DB's census starts from the
// sampled reads and share its last instance left in the DB's directory
// (carried_traffic.h), which the census writes at its readings and as the
// DB closes.
//
// With cache_aware, it also runs each DB instance's rebuild loop
// (rebuild_loop.h; its part of the listener in census_listener_rebuilds.cc).
//
// The listener and the policy meet in the process-wide census
// (census_registry.h), keyed by the DB's info_log and the column family's
// name.
#ifndef SSTFILTER_TABLE_CENSUS_CENSUS_LISTENER_H_
#define SSTFILTER_TABLE_CENSUS_CENSUS_LISTENER_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "filter/allocation/tree_runs.h"
#include "filter/cache_model/spread_fit.h"
#include "filter/plan/rebuild_queue.h"
#include "rocksdb/listener.h"
#include "rocksdb/metadata.h"
#include "rocksdb/version.h"
#include "table/census/answered_gets.h"
#include "table/census/born_share.h"
#include "table/census/carried_traffic.h"
#include "table/census/census_tree.h"
#include "table/census/file_worker.h"
#include "table/census/filter_answers.h"
#include "table/census/get_rate.h"
#include "table/census/level_moves.h"
#include "table/census/observed_hit_share.h"
#include "table/census/policy_guard.h"
#include "table/census/policy_registry.h"
#include "table/census/read_samples.h"
#include "table/census/rebuild_loop.h"
#include "table/census/reckoning_log.h"
#include "table/census/traffic_file.h"
#include "table/census/traffic_writer.h"

// RocksDB 11.4 tells a listener when a DB begins to close.
#if ROCKSDB_MAJOR > 11 || (ROCKSDB_MAJOR == 11 && ROCKSDB_MINOR >= 4)
#define SSTFILTER_ROCKSDB_HAS_SHUTDOWN_BEGIN 1
#else
#define SSTFILTER_ROCKSDB_HAS_SHUTDOWN_BEGIN 0
#endif

namespace sstfilter {

// The listener that keeps the census. Its Name() is its id in RocksDB
// option strings (listeners=sstfilter.level_census, once
// EnsureRocksDbFilterPoliciesRegistered has run or the plugin is loaded).
class LevelCensusListener final : public rocksdb::EventListener {
 public:
  static const char* kClassName() { return "sstfilter.level_census"; }
  const char* Name() const override { return kClassName(); }
  // work_per_rebuild: kWorkPerRebuild (below); infinity: reads the tree
  // afresh only when an event finds it out of step (for tests).
  // answered_window_gets: the Gets of a hit share's window where it comes
  // from the filters' answers (FilterAnswers::kAnsweredWindowGets; tests
  // that sample every query take fewer).
  // rebuild_bytes_per_second: the pace of the rebuild loop's rewrites
  // (rebuild_loop.h) in place of the policy's (rebuild_mb_s; for tests).
  explicit LevelCensusListener(double work_per_rebuild = kWorkPerRebuild,
                               uint64_t answered_window_gets = FilterAnswers::kAnsweredWindowGets,
                               std::optional<double> rebuild_bytes_per_second = std::nullopt)
      : work_per_rebuild_(work_per_rebuild),
        answered_window_gets_(answered_window_gets),
        rebuild_bytes_per_second_(rebuild_bytes_per_second) {}
  ~LevelCensusListener() override;

  void OnFlushBegin(rocksdb::DB* db, const rocksdb::FlushJobInfo& info) override;
  void OnFlushCompleted(rocksdb::DB* db, const rocksdb::FlushJobInfo& info) override;
  void OnCompactionBegin(rocksdb::DB* db, const rocksdb::CompactionJobInfo& info) override;
  void OnCompactionCompleted(rocksdb::DB* db, const rocksdb::CompactionJobInfo& info) override;
  void OnExternalFileIngested(rocksdb::DB* db,
                              const rocksdb::ExternalFileIngestionInfo& info) override;
  void OnTableFileCreationStarted(const rocksdb::TableFileCreationBriefInfo& info) override;
  void OnTableFileCreated(const rocksdb::TableFileCreationInfo& info) override;
  // The default column family's handle goes: every RocksDB deletes it as
  // the DB closes, before the DB is gone. The rebuild loops stop (a
  // listener is not told whose handle it is: all of them; each DB's starts
  // again at its next event).
  void OnColumnFamilyHandleDeletionStarted(rocksdb::ColumnFamilyHandle* handle) override;
#if SSTFILTER_ROCKSDB_HAS_SHUTDOWN_BEGIN
  // The DB closes: its tree is read a last time (the tables' sampled reads
  // a DB that only read has seen) and its traffic file written.
  void OnDBShutdownBegin(rocksdb::DB* db) override;
#endif

  // Reads the tree afresh (CensusTree::Rebuild) after kWorkPerRebuild
  // times the last reading's time of flush and compaction work: a reading
  // then costs under 0.2% of the work the listener rides on, whatever the
  // table count, and under 0.4% counting an event that waits for it (the
  // events themselves cost the rest).
  static constexpr double kWorkPerRebuild = 500;
  // Also after this long, if kWorkPerRebuild times its time has passed:
  // the tables' sampled reads (read_samples.h) are only read then, and a
  // tree read but not written needs them too.
  static constexpr std::chrono::seconds kTrafficRefresh{5};
  // A new DB instance's first event waits this long at most for its
  // traffic file to be read (on the census's own thread); one read later
  // is taken up at a later event.
  static constexpr std::chrono::milliseconds kCarryWait{500};
  // The rewrites each DB's rebuild loop has done and the bytes they wrote,
  // in this listener (tests, benchmarks).
  struct Rebuilt {
    uint64_t tables = 0;
    uint64_t bytes = 0;
    uint64_t reckonings = 0;  // Times the loop weighed the tables against the plan.
  };
  Rebuilt RebuiltSoFar(const std::string& db_path);
  // Holds every DB's rebuild loop from starting a rewrite (true) or lets
  // it go on (benchmarks: a measure point is the tree as it was, its
  // learning phase the rewrites it sets off). One under way finishes.
  void HoldRebuilds(bool hold) { rebuilds_held_ = hold; }

  // Waits until the census's file writes and reads posted so far are done
  // (tests; a process that reads the traffic file it just had written).
  void WaitForFiles() { files_.Drain(); }

 private:
  // A running job, by (DB path, column family, job id).
  using JobKey = std::tuple<std::string, std::string, int>;
  // The tree a job's tables are sized for, and the census key of its DB.
  struct JobTree {
    const void* census_key = nullptr;
    std::shared_ptr<const TreeRuns> runs;
  };
  // The traffic file read for a new DB instance, filled on the file thread.
  struct CarrySlot {
    std::mutex mu;
    bool ready = false;
    std::optional<TrafficSummary> summary;
  };
  // One DB's tree and what paces its rebuilds.
  struct DbTree {
    CensusTree tree;
    // The DB instance it is of (DB::GetDbSessionId: a reopened DB is a new
    // one, with a new info_log), and its census key (CensusKeyOf, kept:
    // the DB's options are copied to ask).
    std::string session;
    const void* census_key = nullptr;
    bool built = false;
    // The default column family's level targets, from its options as of
    // the last rebuild (a listener is not told the other column families'
    // options: their tables are sized for their levels as they are).
    LevelTargets targets;
    // Its optimize_filters_for_hits, as of the same rebuild
    // (TreeRuns::deepest_unfiltered).
    bool deepest_unfiltered = false;
    double rebuild_micros = 0;       // The last rebuild's time.
    double work_micros = 0;          // Flush and compaction time since.
    std::chrono::steady_clock::time_point rebuilt;  // When it was,
    std::optional<uint64_t> rebuilt_gets;           // and the Gets counted by then.
    // Each table's sampled reads, and when the tables built since the
    // last rebuild were born, with the Gets counted by then (by file number).
    ReadSamples samples;
    std::map<uint64_t, GetsMoment> born;
    // When the traffic summary was last written (traffic_file.h).
    std::optional<std::chrono::steady_clock::time_point> traffic_written;
    // What it held then: the hit share, whether tables' shares.
    std::optional<double> traffic_written_share;
    bool traffic_written_tables = false;
    std::map<int, bool> traffic_written_moves;  // Levels moved: to fewer bits?
    std::string traffic_written_text;                                   // The file as written.
    std::map<int, std::chrono::steady_clock::time_point> flush_starts;  // By job id.
    // The DB's statistics (DBOptions::statistics; null: none), and the
    // share of Gets they say found their key.
    std::shared_ptr<rocksdb::Statistics> statistics;
    HitShareWindow hit_share;
    // Without statistics, the Gets its filters' answers tell.
    AnsweredGets answered;
    // The filter bytes of the tables this instance wrote (the hit share's
    // windows count them beside the cache's misses).
    uint64_t written_filter_bytes = 0;
    // Where its traffic file is, and this instance's writes of it.
    TrafficFileSite file_site;
    std::shared_ptr<TrafficWrites> writes;
    // What the DB's last instance left (carried_traffic.h): read on the
    // file thread into `carry`, taken up by an event once there, and kept
    // in `carried` until the next reading takes up its tables' counts.
    std::shared_ptr<CarrySlot> carry;
    std::optional<TrafficSummary> carried;
    // Says so where the column family's policy is not sstfilter's.
    PolicyGuard policy_guard;
    // The instance closed (OnDBShutdownBegin), its traffic file written.
    bool closed = false;
    // The Gets that reached its tables so far (GetOutcomes::reached), and
    // the readings of them (the first as the instance opened, then the
    // loop's), for their rate.
    uint64_t gets_reached = 0;
    GetReadings get_readings;
    // The tables the loop wrote, by file number: the bits per key the plan
    // gave each then. One is off the plan only once the plan has moved
    // from that (its filter is what a rewrite under it builds).
    std::map<uint64_t, double> rebuilt_for;
    // Which way the loop last moved each level's filters, and when
    // (level_moves.h; this instance's, and those its traffic file carried
    // from the last): the other way waits kPaybackHorizon, as a rewrite is
    // paid back over it (a plan that flips as the rewrites change the tree
    // would otherwise rewrite a level back and forth).
    LevelMoveTimes level_moves;
    // RocksDB's own flushes, compactions and ingestions begun: the loop's
    // queue of rewrites holds while none has.
    uint64_t rocksdb_jobs = 0;
    // The tables the loop's last reckoning found worth rewriting, after
    // the one it took then.
    RebuildQueue rebuilds;
    ReckoningLogGate reckoning_log;  // Which of its reckonings the LOG shows.
  };
  // A DB instance's rebuild loop.
  struct Loop {
    std::string session;
    std::unique_ptr<RebuildLoop> loop;
    // StopLoops is waiting for it: the rewrite it ends with must not start
    // a new one (its end is an event of the DB's).
    bool stopping = false;
  };

  // Under mu_: the DB's tree, rebuilt first if it has none yet or is of
  // an earlier instance of the DB.
  DbTree& TreeOf(rocksdb::DB* db);
  // Under mu_: reads the DB's live tables into its tree afresh.
  void Rebuild(rocksdb::DB* db, DbTree* tree);
  // Under mu_: the DB's statistics (else, once its tree is read, its
  // filters' answers) and the filter bytes it wrote, read into its hit
  // share's window.
  static void ObserveGets(DbTree* tree);
  // Under mu_: now, and the Gets counted by now (ObserveGets first).
  static GetsMoment GetsNow(DbTree* tree);
  // The Gets counted by the last ObserveGets; nullopt where nothing counts
  // them (no statistics, and no filter answers read yet).
  static std::optional<uint64_t> CountedGets(const DbTree& tree);
  // Under mu_: takes up what the file thread read of the DB's last
  // instance, once it is there; whether it took some up now.
  static bool TakeUpCarry(DbTree* tree);
  // Under mu_: whether the tree is due a rebuild.
  bool RebuildDue(const DbTree& tree) const;
  // Under mu_: writes the tree's traffic summary into the DB's directory
  // (traffic_file.h) if one is due (`closing`: whenever it says something)
  // and the traffic is known.
  void WriteTrafficFile(DbTree* tree, bool closing = false);
  // Under mu_: after an event that changed the tree (in_step false: it
  // named a table the tree does not hold), rebuilds it if due, counts
  // `work_micros` of job time, and publishes its runs.
  std::map<std::string, std::shared_ptr<const TreeRuns>> Update(rocksdb::DB* db, bool in_step,
                                                                 double work_micros);
  // Records the filter bits of the default column family's live tables the
  // census has not seen built (a DB opened by this process: its tables
  // from before), from their table properties, once each.
  void RecordUnseenTables(rocksdb::DB* db, const std::vector<rocksdb::LiveFileMetaData>& files);
  // Under mu_, at a DB instance's first reading: whether the default
  // column family's filter policy is sstfilter's (policy_guard.h).
  void CheckPolicy(rocksdb::DB* db, const std::vector<rocksdb::LiveFileMetaData>& files,
                   DbTree* tree);
  // Under mu_: starts the DB's rebuild loop if it has none.
  void StartLoop(rocksdb::DB* db, const DbTree& tree);
  // The loop's owner (RebuildLoop::Owner): the table the DB instance
  // `session` should rewrite now, and a rewrite's start and end counted as
  // a compaction job of the census's own (`job`, below 0).
  std::optional<RebuildTarget> PickRebuild(rocksdb::DB* db, const std::string& session);
  // Under mu_: the queue's next table, if its reckoning holds.
  std::optional<TableRebuild> TakeQueued(DbTree* tree);
  // The tables worth rewriting now, best first (RebuildsWorthIt of the
  // off-plan tables at the Get rate), set pending in the tree: what the
  // pick does when the queue holds none.
  struct Reckoning {
    std::vector<TableRebuild> worth;
    double gets_per_second = 0;
    uint64_t rocksdb_jobs = 0;  // DbTree::rocksdb_jobs as it began.
    std::chrono::steady_clock::time_point at;
  };
  // `files`: the DB's live tables, listed here once the Gets have a rate.
  Reckoning Reckon(rocksdb::DB* db, const std::string& session, const PolicySizing& sizing,
                   std::vector<rocksdb::LiveFileMetaData>* files);
  // How a reckoning's tables off the plan fared: those weighed (their level
  // saves over the margin under both spreads, a level under way by its move
  // whole: RebuildGains), those the loop wrote for the plan as it is, those
  // waiting out the other move, those left (paying), those worth it.
  struct ReckoningCounts {
    size_t off_plan = 0, weighed = 0, rewritten_for_the_plan = 0, waiting = 0, paying = 0,
           worth = 0;
    double hot_width = kUnsharpened;  // The plan's spread fit (OffPlanView).
    // Where the gains are the false positives' (OffPlanView::bits): the
    // tree's bits over the plan's; 0 otherwise.
    double bits_held = 0;
  };
  // Under mu_: says in the DB's LOG how a reckoning's tables fared, where
  // DbTree::reckoning_log admits it.
  static void LogReckoning(rocksdb::DB* db, DbTree* tree, const ReckoningCounts& counts,
                           double gets_per_second);
  // A loop's rewrite begins: counted as a compaction of the table into its
  // level, its output built on the tree of today's plan (FreeTree) where
  // `sizing` (the DB's policy's) is known.
  void BeginRebuild(rocksdb::DB* db, int job, const RebuildTarget& target,
                    const std::optional<PolicySizing>& sizing);
  void EndRebuild(rocksdb::DB* db, int job, const RebuildTarget& target,
                  const rocksdb::Status& status, rocksdb::CompactionJobInfo info);
  // Under mu_: the rate of Gets reaching the tables over the loop's recent
  // readings.
  static double GetRate(DbTree* tree);
  // Stops the loops of `db_path` (every DB's if empty) of the DB instance
  // `session` (any if empty); not under mu_.
  void StopLoops(const std::string& db_path, const std::string& session = "");
  // Under mu_: the census's part of a compaction job's start and end
  // (OnCompactionBegin, OnCompactionCompleted, and the rebuilds').
  void BeginJob(rocksdb::DB* db, const rocksdb::CompactionJobInfo& info);
  void EndJob(rocksdb::DB* db, const rocksdb::CompactionJobInfo& info);
  // Under mu_: keeps the column family's tree for the job's tables.
  void StartJob(rocksdb::DB* db, const std::string& column_family, int job_id,
                const std::map<std::string, std::shared_ptr<const TreeRuns>>& published);

  const double work_per_rebuild_;
  const uint64_t answered_window_gets_;
  const std::optional<double> rebuild_bytes_per_second_;
  std::atomic<bool> rebuilds_held_{false};
  std::mutex mu_;
  std::map<std::string, DbTree> trees_;  // By DB path.
  std::map<std::string, std::map<int, CensusTree::Compaction>> running_;  // DB path -> jobs.
  std::map<std::string, std::map<uint64_t, TableRecord>> records_;  // DB path -> tables.
  std::map<JobKey, JobTree> jobs_;
  std::vector<const void*> published_;  // DBs to Forget when destroyed.
  std::map<std::string, Loop> loops_;   // By DB path.
  std::map<std::string, Rebuilt> rebuilt_;  // By DB path, over its instances.
  int next_rebuild_job_ = -1;               // The rebuilds' job ids: below 0.
  // By DB path, the table the loop is rewriting and the tree its plan was
  // weighed on: RocksDB runs the rewrite as a compaction job of its own
  // (CompactFiles), whose tables are built on that tree (BeginJob).
  std::map<std::string, std::pair<uint64_t, std::shared_ptr<const TreeRuns>>> loop_rewrites_;
  // Last: destroyed first, running what waits while the rest still lives.
  FileWorker files_;
};

// A listener to add to DBOptions::listeners beside a policy with
// optimize_levels.
std::shared_ptr<rocksdb::EventListener> NewLevelCensusListener();

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_CENSUS_CENSUS_LISTENER_H_

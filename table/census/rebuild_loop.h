// The thread that rewrites a DB's tables whose filters are off today's plan
// (off_plan_tables.h), one at a time, in place: DB::CompactFiles of the one
// table into its own level, which RocksDB runs on the caller's thread and
// installs atomically (a rewrite a crash or a close interrupts leaves the
// table as it was; its keys are never in neither). The table's new filter
// is whatever the policy builds for it then: today's plan.
//
// Why this mechanism: RocksDB's own rewrites of marked files
// (NeedCompact, experimental::SuggestCompactRange) never pick a file at the
// last level with data, which holds most filter bytes, and move a file
// above it down a level rather than in place; CompactRange rewrites every
// level over the range. CompactFiles into the same level rewrites exactly
// the table, on RocksDB 7.8 to 11.x alike, but on the caller's thread and
// with the DB in hand, so the loop holds the DB from one of its census
// events until the DB closes, and RocksDB gives no read-only event to a DB
// that only reads: a DB instance whose tree never changes has no loop
// (its census writes what it learned, and the next instance that flushes
// or compacts starts one).
//
// The loop never blocks a write and yields to RocksDB: it rewrites only
// while the DB runs no flush or compaction, has no background error, and
// has none pending (but those pending while automatic compactions are off,
// which never run, and one still pending with nothing running after
// kUnpicked of the loop's one-a-second looks since its last rewrite, taken
// for one RocksDB declined: universal compaction reports one due whenever
// its sorted runs reach the trigger, also when its picker then declines
// every run, until the next flush; a leveled compaction held back by a
// full thread pool or paused background work looks the same), and paces
// itself to each rewrite's pace (the policy's rebuild_mb_s). It stops, cancelling a
// rewrite under way where RocksDB can (CompactionOptions::canceled, in the
// 11.x line; before it the rewrite ends at the DB's own shutdown flag),
// when the DB begins to close (EventListener::OnDBShutdownBegin on 11.4
// and later; OnColumnFamilyHandleDeletionStarted for the default column
// family, which every RocksDB calls as it closes, before the DB is gone).
#ifndef SSTFILTER_TABLE_CENSUS_REBUILD_LOOP_H_
#define SSTFILTER_TABLE_CENSUS_REBUILD_LOOP_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "rocksdb/db.h"
#include "rocksdb/listener.h"
#include "table/census/declined_compaction.h"

namespace sstfilter {

// A table to rewrite in place.
struct RebuildTarget {
  uint64_t number = 0;  // Its file number.
  std::string name;     // As RocksDB's metadata names it ("/000123.sst").
  int level = 1;
  double planned_bits = 0;  // Per key, the plan's for it (0: no filter).
  // The pace: the next rewrite starts no sooner than its bytes take at it.
  double bytes_per_second = 0;
  std::string why;          // For the DB's LOG: what the rewrite is to save.
};

class RebuildLoop {
 public:
  // What the loop asks its owner (the census listener): the table to
  // rewrite now, if any; and each rewrite's start and end, so that the
  // census counts the table as being rewritten meanwhile.
  struct Owner {
    std::function<std::optional<RebuildTarget>()> pick;
    std::function<void(const RebuildTarget&)> begin;
    std::function<void(const RebuildTarget&, const rocksdb::Status&,
                       const rocksdb::CompactionJobInfo&)>
        end;
  };

  // How often an idle loop looks again.
  static constexpr std::chrono::milliseconds kTick{1000};
  // How long a compaction may stay pending with no flush or compaction
  // running before the loop takes it for one RocksDB declined
  // (declined_compaction.h).
  static constexpr std::chrono::seconds kUnpicked{2};

  // Starts the loop for `db` (alive until Stop returns).
  RebuildLoop(rocksdb::DB* db, Owner owner);
  ~RebuildLoop() { Stop(); }
  RebuildLoop(const RebuildLoop&) = delete;
  RebuildLoop& operator=(const RebuildLoop&) = delete;

  // Cancels a rewrite under way where RocksDB can and waits for the thread
  // to end: after it returns the loop calls nothing. Idempotent. Not from
  // the loop's own thread (an owner's callback).
  void Stop();

 private:
  void Run();
  // Whether RocksDB has a flush or compaction running or pending (see
  // above: not one it declined).
  bool Busy();
  // One rewrite; returns the bytes it wrote.
  uint64_t Rewrite(const RebuildTarget& target);

  rocksdb::DB* const db_;
  const Owner owner_;
  std::mutex mu_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::atomic<bool> canceled_{false};
  DeclinedCompaction declined_{kUnpicked};  // The loop's thread only.
  std::thread thread_;
};

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_CENSUS_REBUILD_LOOP_H_

#include "tests/crash/crash_write.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <random>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "rocksdb/db.h"
#include "rocksdb/write_batch.h"
#include "table/census/open_db.h"
#include "tests/crash/crash_options.h"
#include "tests/crash/key_scheme.h"
#include "tests/crash/progress_file.h"

namespace sstfilter::crash {
namespace {

// stderr is unbuffered: the line is out before the phase starts.
void AnnouncePhase(const char* phase) { absl::FPrintF(stderr, "phase %s\n", phase); }

absl::Status Failed(const char* what, const rocksdb::Status& s) {
  return absl::InternalError(absl::StrCat(what, ": ", s.ToString()));
}

// Compacts the keys between two random slots: with the permuted key order
// every file overlaps the range, so the compaction rewrites real data.
rocksdb::Status CompactRandomRange(rocksdb::DB& db, std::mt19937_64& rng) {
  uint64_t a = rng() % kNumSteps, b = rng() % kNumSteps;
  if (a > b) std::swap(a, b);
  const std::string begin = KeyNumbered(2 * a), end = KeyNumbered(2 * b + 1);
  const rocksdb::Slice begin_slice(begin), end_slice(end);
  return db.CompactRange(rocksdb::CompactRangeOptions(), &begin_slice, &end_slice);
}

}  // namespace

absl::Status RunWriter(const WriteConfig& config) {
  absl::StatusOr<rocksdb::Options> options = MakeCrashDbOptions(config.table_options);
  if (!options.ok()) return options.status();
  const ProgressFile progress(options->env, config.progress);
  absl::StatusOr<uint64_t> start = progress.Read();
  if (!start.ok()) return start.status();
  const uint64_t end = config.max_steps == 0 ? kNumSteps : std::min(config.max_steps, kNumSteps);

  AnnouncePhase("open");
  std::unique_ptr<rocksdb::DB> db;
  rocksdb::Status s = OpenDb(*options, config.db, &db);
  if (!s.ok()) return Failed("open", s);

  std::mt19937_64 rng(config.seed);
  rocksdb::WriteOptions synced;
  synced.sync = true;
  uint64_t batches = 0;
  for (uint64_t step = *start; step < end; ++batches) {
    AnnouncePhase("write");
    rocksdb::WriteBatch batch;
    const uint64_t batch_end = std::min(end, step + config.batch_steps);
    for (uint64_t i = step; i < batch_end; ++i) {
      const std::string key = WrittenKey(i);
      batch.Put(key, ValueOf(key));
    }
    s = db->Write(synced, &batch);
    if (!s.ok()) return Failed("write", s);
    step = batch_end;
    // Acknowledged: only now may the record include these steps.
    if (absl::Status recorded = progress.Record(step); !recorded.ok()) return recorded;

    if (batches % config.flush_every == config.flush_every - 1) {
      AnnouncePhase("flush");
      s = db->Flush(rocksdb::FlushOptions());
      if (!s.ok()) return Failed("flush", s);
    }
    if (batches % config.compact_every == config.compact_every - 1) {
      AnnouncePhase("compact");
      s = CompactRandomRange(*db, rng);
      if (!s.ok()) return Failed("compact", s);
    }
  }
  AnnouncePhase("done");
  s = db->Close();
  return s.ok() ? absl::OkStatus() : Failed("close", s);
}

}  // namespace sstfilter::crash

#include "tests/crash/crash_verify.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "rocksdb/db.h"
#include "rocksdb/metadata.h"
#include "rocksdb/statistics.h"
#include "table/census/open_db.h"
#include "tests/crash/crash_options.h"
#include "tests/crash/key_scheme.h"
#include "tests/crash/progress_file.h"

namespace sstfilter::crash {
namespace {

// Steps asked for past the first absent one: a surviving later write within
// this window is a gap.
constexpr uint64_t kTailSteps = 2048;
// With this many keys the DB has several SST files whose ranges cover the
// holes asked for, so some filter must have said "absent".
constexpr uint64_t kMinStepsForFilterCheck = 256;
// Keys per MultiGet: 32 steps, each its key and its hole.
constexpr size_t kMultiGetSteps = 32;

constexpr uint64_t kNone = std::numeric_limits<uint64_t>::max();

// What one lookup said about a key.
enum class Answer { kAbsent, kPresent, kWrongValue };

absl::StatusOr<Answer> Classify(const rocksdb::Status& s, const std::string& value,
                                const std::string& expected) {
  if (s.IsNotFound()) return Answer::kAbsent;
  if (!s.ok()) return absl::InternalError(absl::StrCat("lookup: ", s.ToString()));
  return value == expected ? Answer::kPresent : Answer::kWrongValue;
}

// Folds the answers for one step (in step order) into the result, and
// tracks the first absent step. The hole's expected value is irrelevant:
// any answer but kAbsent is a phantom.
class StepJudge {
 public:
  StepJudge(uint64_t acknowledged, VerifyResult* result)
      : acknowledged_(acknowledged), result_(result) {}

  void Judge(uint64_t step, Answer key, Answer hole) {
    if (hole != Answer::kAbsent) ++result_->phantoms;
    if (key == Answer::kWrongValue) ++result_->bad_values;
    if (key == Answer::kAbsent) {
      if (step < acknowledged_) ++result_->lost;
      first_absent_ = std::min(first_absent_, step);
    } else if (first_absent_ != kNone) {
      ++result_->gaps;
    }
  }
  uint64_t first_absent() const { return first_absent_; }

 private:
  uint64_t acknowledged_;
  VerifyResult* result_;
  uint64_t first_absent_ = kNone;
};

class Verifier {
 public:
  Verifier(rocksdb::DB& db, rocksdb::Statistics& stats, VerifyResult* result)
      : db_(db), stats_(stats), result_(result) {}

  // Get pass: asks steps until past both the acknowledged ones and the
  // tail after the first absent one; sets checked_steps and present.
  absl::Status GetPass() {
    StepJudge judge(result_->acknowledged, result_);
    uint64_t step = 0;
    for (; step < kNumSteps; ++step) {
      const uint64_t first_absent = judge.first_absent();
      if (step >= result_->acknowledged && first_absent != kNone &&
          step >= first_absent + kTailSteps) {
        break;
      }
      absl::StatusOr<Answer> key = GetAnswer(WrittenKey(step));
      absl::StatusOr<Answer> hole = GetAnswer(HoleKey(step));
      if (!key.ok()) return key.status();
      if (!hole.ok()) return hole.status();
      get_answers_.push_back(*key);
      judge.Judge(step, *key, *hole);
    }
    result_->checked_steps = step;
    result_->present = std::min(judge.first_absent(), step);
    result_->filter_useful_get = stats_.getAndResetTickerCount(rocksdb::BLOOM_FILTER_USEFUL);
    return absl::OkStatus();
  }

  // MultiGet pass over the same steps; its own losses and phantoms count
  // too, and every answer must equal the Get pass's.
  absl::Status MultiGetPass() {
    VerifyResult multi;
    StepJudge judge(result_->acknowledged, &multi);
    for (uint64_t first = 0; first < result_->checked_steps; first += kMultiGetSteps) {
      const uint64_t end = std::min<uint64_t>(result_->checked_steps, first + kMultiGetSteps);
      std::vector<std::string> keys;
      for (uint64_t step = first; step < end; ++step) {
        keys.push_back(WrittenKey(step));
        keys.push_back(HoleKey(step));
      }
      std::vector<rocksdb::Slice> slices(keys.begin(), keys.end());
      std::vector<rocksdb::PinnableSlice> values(keys.size());
      std::vector<rocksdb::Status> statuses(keys.size());
      db_.MultiGet(rocksdb::ReadOptions(), db_.DefaultColumnFamily(), keys.size(), slices.data(),
                   values.data(), statuses.data());
      for (uint64_t step = first; step < end; ++step) {
        const size_t i = 2 * (step - first);
        absl::StatusOr<Answer> key = Classify(statuses[i], values[i].ToString(), ValueOf(keys[i]));
        absl::StatusOr<Answer> hole = Classify(statuses[i + 1], values[i + 1].ToString(), "");
        if (!key.ok()) return key.status();
        if (!hole.ok()) return hole.status();
        if (*key != get_answers_[step]) ++result_->disagreements;
        judge.Judge(step, *key, *hole);
      }
    }
    result_->lost += multi.lost;
    result_->phantoms += multi.phantoms;
    result_->bad_values += multi.bad_values;
    result_->gaps += multi.gaps;
    result_->filter_useful_multiget = stats_.getAndResetTickerCount(rocksdb::BLOOM_FILTER_USEFUL);
    return absl::OkStatus();
  }

 private:
  absl::StatusOr<Answer> GetAnswer(const std::string& key) {
    std::string value;
    rocksdb::Status s = db_.Get(rocksdb::ReadOptions(), key, &value);
    return Classify(s, value, ValueOf(key));
  }

  rocksdb::DB& db_;
  rocksdb::Statistics& stats_;
  VerifyResult* result_;
  std::vector<Answer> get_answers_;  // By step.
};

}  // namespace

bool VerifyResult::Passed() const {
  const bool filters_ok =
      !filter_check_applies || (filter_useful_get > 0 && filter_useful_multiget > 0);
  return lost == 0 && bad_values == 0 && phantoms == 0 && gaps == 0 && disagreements == 0 &&
         present >= acknowledged && filters_ok;
}

std::string VerifyResult::Summary() const {
  return absl::StrFormat(
      "acknowledged=%d present=%d checked_steps=%d lost=%d bad_values=%d phantoms=%d gaps=%d "
      "disagreements=%d filter_useful_get=%d filter_useful_multiget=%d sst_files=%d "
      "filter_check=%s result=%s",
      acknowledged, present, checked_steps, lost, bad_values, phantoms, gaps, disagreements,
      filter_useful_get, filter_useful_multiget, sst_files,
      filter_check_applies ? "required" : "too_few_keys", Passed() ? "ok" : "FAILED");
}

absl::StatusOr<VerifyResult> RunVerifier(const VerifyConfig& config) {
  absl::StatusOr<rocksdb::Options> options = MakeCrashDbOptions(config.table_options);
  if (!options.ok()) return options.status();
  VerifyResult result;
  absl::StatusOr<uint64_t> acknowledged = ProgressFile(options->env, config.progress).Read();
  if (!acknowledged.ok()) return acknowledged.status();
  result.acknowledged = *acknowledged;

  std::unique_ptr<rocksdb::DB> db;
  rocksdb::Status s = OpenDb(*options, config.db, &db);  // Recovers the WAL.
  if (!s.ok()) return absl::InternalError(absl::StrCat("open ", config.db, ": ", s.ToString()));
  std::vector<rocksdb::LiveFileMetaData> files;
  db->GetLiveFilesMetaData(&files);
  result.sst_files = files.size();
  options->statistics->Reset().PermitUncheckedError();  // Count only our lookups.

  Verifier verifier(*db, *options->statistics, &result);
  if (absl::Status get = verifier.GetPass(); !get.ok()) return get;
  if (absl::Status multi = verifier.MultiGetPass(); !multi.ok()) return multi;
  result.filter_check_applies = result.present >= kMinStepsForFilterCheck;
  s = db->Close();
  if (!s.ok()) return absl::InternalError(absl::StrCat("close: ", s.ToString()));
  return result;
}

}  // namespace sstfilter::crash

#include "table/census/answered_gets.h"

#include <cmath>

#include "filter/allocation/gets_from_answers.h"
#include "rocksdb/options.h"
#include "rocksdb/table.h"
#include "table/census/policy_registry.h"

namespace sstfilter {

AnsweredGets::AnsweredGets(rocksdb::DB* db) {
  const rocksdb::Options options = db->GetOptions();
  if (options.table_factory == nullptr) return;
  const auto* table = options.table_factory->GetOptions<rocksdb::BlockBasedTableOptions>();
  if (table == nullptr || table->filter_policy == nullptr) return;
  // Its answers from before the census first read the DB count: a DB that
  // only reads is read first as it closes.
  const std::optional<RegisteredPolicy> policy = RegisteredPolicyOf(table->filter_policy.get());
  if (policy.has_value()) answers_ = policy->answers;
}

std::optional<GetOutcomes> AnsweredGets::Read(const TreeRuns& runs) {
  if (answers_ == nullptr) return std::nullopt;
  const AnswerCounts fresh = answers_->TakeNew();
  const auto count = [](uint64_t n) { return static_cast<double>(n); };
  const GetsEstimate gets = GetsFromAnswers(
      runs, {count(fresh.queries), count(fresh.positives), count(fresh.control_positives),
             count(fresh.control_positives_of_positives)});
  reached_ += gets.reached, found_ += gets.found;
  GetOutcomes outcomes;
  outcomes.reached = static_cast<uint64_t>(std::llround(reached_));
  outcomes.found = static_cast<uint64_t>(std::llround(found_));
  outcomes.cache_counted = false;
  return outcomes;
}

}  // namespace sstfilter

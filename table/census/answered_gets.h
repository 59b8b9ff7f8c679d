// The Gets a DB's filters answered, as the census's hit share counts them
// (observed_hit_share.h's GetOutcomes) where the DB keeps no statistics:
// its default column family's policy's sampled answers
// (filter_answers.h), turned into Gets on the tree they were answered on
// (filter/allocation/gets_from_answers.h) reading by reading.
#ifndef SSTFILTER_TABLE_CENSUS_ANSWERED_GETS_H_
#define SSTFILTER_TABLE_CENSUS_ANSWERED_GETS_H_

#include <memory>
#include <optional>

#include "filter/allocation/tree_runs.h"
#include "rocksdb/db.h"
#include "table/census/filter_answers.h"
#include "table/census/observed_hit_share.h"

namespace sstfilter {

class AnsweredGets {
 public:
  AnsweredGets() = default;
  // The answers of `db`'s default column family's filter policy, where it
  // is sstfilter's; none otherwise.
  explicit AnsweredGets(rocksdb::DB* db);

  // Whether the DB's policy counts answers.
  bool counted() const { return answers_ != nullptr; }
  // The Gets answered since the census first read the policy's answers
  // (FilterAnswers::TakeNew), the answers since the last reading taken as
  // made on `runs`; nullopt where none are counted.
  std::optional<GetOutcomes> Read(const TreeRuns& runs);

 private:
  std::shared_ptr<FilterAnswers> answers_;
  double reached_ = 0, found_ = 0;
};

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_CENSUS_ANSWERED_GETS_H_

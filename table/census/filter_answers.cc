#include "table/census/filter_answers.h"

#include <mutex>

namespace sstfilter {

AnswerCounts FilterAnswers::TakeNew() {
  std::lock_guard<std::mutex> lock(taken_mu_);
  const AnswerCounts now = counts();
  // Each count is read once, so a count read before another never runs
  // behind it; clamped all the same.
  const auto since = [](uint64_t now_count, uint64_t then) {
    return now_count < then ? 0 : now_count - then;
  };
  const AnswerCounts fresh{
      since(now.queries, taken_.queries), since(now.positives, taken_.positives),
      since(now.control_positives, taken_.control_positives),
      since(now.control_positives_of_positives, taken_.control_positives_of_positives)};
  taken_ = now;
  return fresh;
}

}  // namespace sstfilter

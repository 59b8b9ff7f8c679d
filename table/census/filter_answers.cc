#include "table/census/filter_answers.h"

#include <map>
#include <mutex>

namespace sstfilter {

namespace {

struct AnswersByPolicy {
  std::mutex mu;
  std::map<const void*, std::shared_ptr<FilterAnswers>> by_policy;
};

AnswersByPolicy& Registry() {
  static auto* registry = new AnswersByPolicy();  // Never destroyed: used at exit.
  return *registry;
}

}  // namespace

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

std::shared_ptr<FilterAnswers> RegisterFilterAnswers(const void* policy) {
  auto answers = std::make_shared<FilterAnswers>();
  std::lock_guard<std::mutex> lock(Registry().mu);
  Registry().by_policy[policy] = answers;
  return answers;
}

void UnregisterFilterAnswers(const void* policy) {
  std::lock_guard<std::mutex> lock(Registry().mu);
  Registry().by_policy.erase(policy);
}

std::shared_ptr<FilterAnswers> FilterAnswersOf(const void* policy) {
  std::lock_guard<std::mutex> lock(Registry().mu);
  const auto it = Registry().by_policy.find(policy);
  return it == Registry().by_policy.end() ? nullptr : it->second;
}

}  // namespace sstfilter

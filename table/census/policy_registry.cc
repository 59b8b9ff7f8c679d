#include "table/census/policy_registry.h"

#include <map>
#include <mutex>
#include <utility>

namespace sstfilter {

namespace {

struct Registry {
  std::mutex mu;
  std::map<const void*, RegisteredPolicy> by_policy;
};

Registry& Policies() {
  static auto* registry = new Registry();  // Never destroyed: used at exit.
  return *registry;
}

}  // namespace

std::shared_ptr<FilterAnswers> RegisterPolicy(const void* policy, SizingOf sizing) {
  auto answers = std::make_shared<FilterAnswers>();
  std::lock_guard<std::mutex> lock(Policies().mu);
  Policies().by_policy[policy] = RegisteredPolicy{answers, std::move(sizing)};
  return answers;
}

void UnregisterPolicy(const void* policy) {
  std::lock_guard<std::mutex> lock(Policies().mu);
  Policies().by_policy.erase(policy);
}

std::optional<RegisteredPolicy> RegisteredPolicyOf(const void* policy) {
  std::lock_guard<std::mutex> lock(Policies().mu);
  const auto it = Policies().by_policy.find(policy);
  if (it == Policies().by_policy.end()) return std::nullopt;
  return it->second;
}

}  // namespace sstfilter

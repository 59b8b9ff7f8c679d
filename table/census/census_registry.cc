#include "table/census/census_registry.h"

namespace sstfilter {

LevelCensus& LevelCensus::Instance() {
  static auto* census = new LevelCensus();
  return *census;
}

std::shared_ptr<const TreeRuns> LevelCensus::Find(const void* db,
                                                  const std::string& column_family) const {
  std::lock_guard<std::mutex> lock(mu_);
  const auto it = runs_.find({db, column_family});
  return it == runs_.end() ? nullptr : it->second;
}

std::map<std::string, std::shared_ptr<const TreeRuns>> LevelCensus::Publish(
    const void* db, std::map<std::string, TreeRuns> by_column_family) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto it = runs_.begin(); it != runs_.end();) {
    it = it->first.first == db ? runs_.erase(it) : std::next(it);
  }
  std::map<std::string, std::shared_ptr<const TreeRuns>> published;
  for (auto& [column_family, runs] : by_column_family) {
    auto shared = std::make_shared<const TreeRuns>(std::move(runs));
    runs_[{db, column_family}] = shared;
    published[column_family] = std::move(shared);
  }
  // The plans of column families no longer published (dropped) go too.
  for (auto it = plans_.begin(); it != plans_.end();) {
    const bool gone = it->first.first == db && published.count(it->first.second) == 0;
    it = gone ? plans_.erase(it) : std::next(it);
  }
  return published;
}

void LevelCensus::Forget(const void* db) {
  Publish(db, {});
  ForgetPlans(db);
}

std::shared_ptr<CachePlanMemo> LevelCensus::PlansOf(const void* db,
                                                    const std::string& column_family) {
  std::lock_guard<std::mutex> lock(mu_);
  if (runs_.count({db, column_family}) == 0) return nullptr;
  std::shared_ptr<CachePlanMemo>& plans = plans_[{db, column_family}];
  if (plans == nullptr) plans = std::make_shared<CachePlanMemo>();
  return plans;
}

void LevelCensus::ForgetPlans(const void* db) {
  std::lock_guard<std::mutex> lock(mu_);
  for (auto it = plans_.begin(); it != plans_.end();) {
    it = it->first.first == db ? plans_.erase(it) : std::next(it);
  }
}

const void* CensusKeyOf(rocksdb::DB* db) { return db->GetDBOptions().info_log.get(); }

}  // namespace sstfilter

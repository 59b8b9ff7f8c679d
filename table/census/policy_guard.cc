#include "table/census/policy_guard.h"

#include "absl/strings/str_format.h"
#include "filter/filter_options.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/options.h"
#include "rocksdb/table.h"

namespace sstfilter {

namespace {

constexpr char kWhy[] =
    "if the DB's options named sstfilter.bloom, RocksDB dropped that filter_policy string "
    "before sstfilter saw it (a malformed option map: docs/rocksdb.md#filter-policy-strings-"
    "rocksdb-drops); check filter_policy in the DB's newest OPTIONS file";

void Error(rocksdb::DB* db, const std::string& text) {
  rocksdb::Log(rocksdb::InfoLogLevel::ERROR_LEVEL, db->GetDBOptions().info_log.get(), "%s",
               text.c_str());
}

}  // namespace

std::optional<std::string> ForeignFilterPolicy(rocksdb::DB* db) {
  const rocksdb::Options options = db->GetOptions();
  const rocksdb::TableFactory* factory = options.table_factory.get();
  const auto* table =
      factory == nullptr ? nullptr : factory->GetOptions<rocksdb::BlockBasedTableOptions>();
  if (table == nullptr) {
    return absl::StrFormat("none (the table factory is %s, not block-based)",
                           factory == nullptr ? "nullptr" : factory->Name());
  }
  if (table->filter_policy == nullptr) return std::string("none (filter_policy is nullptr)");
  if (std::string(table->filter_policy->CompatibilityName()) == kBloomPolicyName) {
    return std::nullopt;
  }
  return std::string(table->filter_policy->Name());
}

void PolicyGuard::Check(rocksdb::DB* db, uint64_t ours, uint64_t tables) {
  foreign_ = ForeignFilterPolicy(db);
  if (!foreign_.has_value()) return;
  Error(db, absl::StrFormat(
                "sstfilter census: column family 'default' has filter policy %s, not "
                "sstfilter.bloom, though its census (listeners=sstfilter.level_census) is "
                "there to serve one; %d of its %d live tables carry sstfilter filters, and "
                "every table it writes from now on, compactions of those too, gets that "
                "policy's filter or none: %s",
                *foreign_, ours, tables, kWhy));
  said_ = std::chrono::steady_clock::now();
}

void PolicyGuard::BeforeCompaction(rocksdb::DB* db, int job_id, uint64_t ours) {
  if (!foreign_.has_value() || ours == 0) return;
  const auto now = std::chrono::steady_clock::now();
  if (said_.has_value() && now - *said_ < kRepeatEvery) {
    ++unsaid_;
    return;
  }
  Error(db, absl::StrFormat(
                "sstfilter census: compaction job %d rewrites %d tables that carry sstfilter "
                "filters under filter policy %s: their keys lose the filter (%d more such "
                "compactions since the last line): %s",
                job_id, ours, *foreign_, unsaid_, kWhy));
  said_ = now;
  unsaid_ = 0;
}

}  // namespace sstfilter

#include "tests/crash/crash_options.h"

#include <string_view>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "filter/filter_options.h"
#include "rocksdb/convenience.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/statistics.h"
#include "rocksdb/table.h"
#include "table/census/census_listener.h"
#include "table/rocksdb/registration.h"

namespace sstfilter::crash {
namespace {

// Small enough that a second of writing makes several SST files over two or
// three levels; the files hold about a thousand keys each.
constexpr size_t kWriteBufferSize = 128 << 10;
constexpr uint64_t kTargetFileSize = 64 << 10;
constexpr uint64_t kLevelBaseBytes = 256 << 10;

}  // namespace

absl::StatusOr<rocksdb::Options> MakeCrashDbOptions(const std::string& table_options) {
  EnsureRocksDbFilterPoliciesRegistered();
  rocksdb::ConfigOptions config;
  config.ignore_unknown_options = false;
  config.input_strings_escaped = false;  // Else RocksDB drops a bad policy id silently.
  rocksdb::BlockBasedTableOptions table;
  rocksdb::Status s = rocksdb::GetBlockBasedTableOptionsFromString(config, {}, table_options, &table);
  if (!s.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("table options '", table_options, "': ", s.ToString()));
  }
  if (table.filter_policy == nullptr ||
      !absl::StartsWith(table.filter_policy->CompatibilityName(), kBloomPolicyName)) {
    return absl::InvalidArgumentError(
        absl::StrCat("table options '", table_options, "' configure no ", kBloomPolicyName,
                     " filter policy"));
  }
  rocksdb::Options options;
  options.create_if_missing = true;
  options.statistics = rocksdb::CreateDBStatistics();
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  options.compaction_style = rocksdb::kCompactionStyleLevel;
  options.compression = rocksdb::kNoCompression;
  options.write_buffer_size = kWriteBufferSize;
  options.target_file_size_base = kTargetFileSize;
  options.max_bytes_for_level_base = kLevelBaseBytes;
  options.level0_file_num_compaction_trigger = 2;
  options.max_background_jobs = 2;
  // Needed by optimize_levels (crash_test.sh draws it in half the runs).
  options.listeners.push_back(NewLevelCensusListener());
  return options;
}

}  // namespace sstfilter::crash

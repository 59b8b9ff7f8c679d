// The RocksDB options of the crash test's writer and verifier: small
// memtables and files (so keys cross many SST files and compactions run
// often), level compaction, statistics on, and the block-based table
// configured from an ordinary RocksDB option string such as
//   filter_policy=sstfilter.bloom:10:cache_local;partition_filters=true;
//   index_type=kTwoLevelIndexSearch;metadata_block_size=512
#ifndef SSTFILTER_TESTS_CRASH_CRASH_OPTIONS_H_
#define SSTFILTER_TESTS_CRASH_CRASH_OPTIONS_H_

#include <string>

#include "absl/status/statusor.h"
#include "rocksdb/options.h"

namespace sstfilter::crash {

// InvalidArgument when the string does not parse or configures no
// sstfilter policy (a run without filters must not pass as a filter test).
absl::StatusOr<rocksdb::Options> MakeCrashDbOptions(const std::string& table_options);

}  // namespace sstfilter::crash

#endif  // SSTFILTER_TESTS_CRASH_CRASH_OPTIONS_H_

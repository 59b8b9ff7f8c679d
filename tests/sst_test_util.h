// Writing small SST files with RocksDB's public SstFileWriter, for the tests
// of the SST filter parser and the sstfilter_sst tool.
#ifndef SSTFILTER_TESTS_SST_TEST_UTIL_H_
#define SSTFILTER_TESTS_SST_TEST_UTIL_H_

#include <algorithm>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "inspect/sst_filter_block.h"
#include "inspect/sst_source.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/options.h"
#include "rocksdb/slice_transform.h"
#include "rocksdb/sst_file_reader.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb/table.h"
#include "rocksdb/version.h"
#include "table/rocksdb/rocksdb_filter_policy.h"

namespace sstfilter::testing {

enum class TestFilter { kOurs, kBuiltin, kNone };

// The block-based format_versions the linked RocksDB writes, from 2 (the
// oldest a current RocksDB still writes): 6 from RocksDB 8.6, 7 from 10.4
// (its default from 10.11).
#define SSTFILTER_ROCKSDB_WRITES_FORMAT_VERSION_7 \
  (ROCKSDB_MAJOR > 10 || (ROCKSDB_MAJOR == 10 && ROCKSDB_MINOR >= 4))
inline std::vector<int> WritableFormatVersions() {
  std::vector<int> versions = {2, 3, 4, 5};
#if ROCKSDB_MAJOR > 8 || (ROCKSDB_MAJOR == 8 && ROCKSDB_MINOR >= 6)
  versions.push_back(6);
#endif
#if SSTFILTER_ROCKSDB_WRITES_FORMAT_VERSION_7
  versions.push_back(7);
#endif
  return versions;
}
inline int NewestFormatVersion() { return WritableFormatVersions().back(); }

// The filter blocks ReadSstFilter finds in the table bytes.
inline absl::StatusOr<SstFilter> Parse(const std::string& bytes, const SstIndexFormat& format,
                                       bool verify_checksums = true) {
  return ReadSstFilter(*NewStringSstSource(bytes), format, verify_checksums);
}

// Parsing fails with DataLoss naming `fragment`. verify_checksums = false
// reaches the parser's own checks behind a block whose checksum the damage
// broke.
inline void ExpectDataLoss(const std::string& bytes, const std::string& fragment,
                           bool verify_checksums = true) {
  absl::StatusOr<SstFilter> filter = Parse(bytes, SstIndexFormat{}, verify_checksums);
  ASSERT_FALSE(filter.ok());
  EXPECT_TRUE(absl::IsDataLoss(filter.status())) << filter.status();
  EXPECT_NE(filter.status().message().find(fragment), std::string::npos)
      << filter.status() << " lacks '" << fragment << "'";
}

struct SstConfig {
  TestFilter filter = TestFilter::kOurs;
  EncodingId encoding = EncodingId::kLevelDb;  // Of kOurs.
  bool partitioned = false;
  int format_version = 5;
  int index_block_restart_interval = 1;
  // A 4-byte fixed prefix extractor with whole_key_filtering off: the filter
  // then holds prefixes only.
  bool prefix_only = false;
  // The blocks' checksum type; RocksDB's default when unset.
  std::optional<rocksdb::ChecksumType> checksum;
  // The data (and index) blocks' compression; RocksDB's default when unset.
  std::optional<rocksdb::CompressionType> compression;
  // Anything else, applied to the options last (e.g. a compression manager).
  std::function<void(rocksdb::Options*)> adjust_options;
};

// Writes the keys (sorted and deduplicated here) to path; fails the test on
// error.
inline void WriteSst(const std::string& path, std::vector<std::string> keys,
                     const SstConfig& config) {
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  rocksdb::BlockBasedTableOptions table;
  // The encoding's own filter sizes, in every RocksDB version (from 9.2 the
  // default sizes filters to the allocator: db_memory_sizing_test).
  table.optimize_filters_for_memory = false;
  table.format_version = config.format_version;
  table.index_block_restart_interval = config.index_block_restart_interval;
  if (config.checksum.has_value()) table.checksum = *config.checksum;
  switch (config.filter) {
    case TestFilter::kOurs: {
      FilterOptions bloom;
      bloom.encoding = config.encoding;
      table.filter_policy = NewRocksDbFilterPolicy(bloom).value();
      break;
    }
    case TestFilter::kBuiltin:
      table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
      break;
    case TestFilter::kNone:
      break;
  }
  if (config.partitioned) {
    table.partition_filters = true;
    table.index_type = rocksdb::BlockBasedTableOptions::kTwoLevelIndexSearch;
    table.metadata_block_size = 256;  // Several partitions from a few thousand keys.
    table.block_size = 512;
  }
  rocksdb::Options options;
  if (config.compression.has_value()) options.compression = *config.compression;
  if (config.prefix_only) {
    options.prefix_extractor.reset(rocksdb::NewFixedPrefixTransform(4));
    table.whole_key_filtering = false;
  }
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  if (config.adjust_options) config.adjust_options(&options);
  rocksdb::SstFileWriter writer(rocksdb::EnvOptions(), options);
  ASSERT_TRUE(writer.Open(path).ok());
  for (const std::string& key : keys) {
    ASSERT_TRUE(writer.Put(key, "v").ok());
  }
  ASSERT_TRUE(writer.Finish().ok());
}

inline std::string ReadFileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline void WriteFileBytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// The index key/value format the table properties announce.
inline SstIndexFormat IndexFormatOf(const std::string& path) {
  rocksdb::SstFileReader reader{rocksdb::Options()};
  EXPECT_TRUE(reader.Open(path).ok());
  const auto props = reader.GetTableProperties();
  SstIndexFormat format;
  format.key_is_user_key = props->index_key_is_user_key != 0;
  format.value_delta_encoded = props->index_value_is_delta_encoded != 0;
  return format;
}

}  // namespace sstfilter::testing

#endif  // SSTFILTER_TESTS_SST_TEST_UTIL_H_

// optimize_filters_for_memory=true through RocksDB's option string, with
// the process's real allocator: no false negatives through flush,
// compaction and reopen (full and partitioned filters), and full filters
// that fill their block allocation, never costing more than without.
// ctest runs this binary twice: with the C library's malloc, and with
// jemalloc preloaded when it is installed (its size classes are coarse, so
// there every encoding changes size; glibc's 16-byte classes leave a
// cache-local filter no room for another 64-byte line; leveldb and compact
// filters fill them to the byte). Every encoding of the list
// (filter/encodings.h) runs, each held to the sizes its own builder can
// write.
#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "db_test_util.h"
#include "filter/encodings.h"
#include "filter/memory_sizing.h"
#include "gtest/gtest.h"
#include "rocksdb/convenience.h"
#include "rocksdb/table_properties.h"
#include "table/census/open_db.h"
#include "table/rocksdb/allocator_usable_size.h"
#include "table/rocksdb/registration.h"

namespace sstfilter {
namespace {

using testing::AbsentKeys;
using testing::RandomKeys;
using testing::TempDir;
using testing::ValueFor;

struct Mode {
  EncodingId encoding;
  bool partitioned;
};

std::string ModeName(const ::testing::TestParamInfo<Mode>& info) {
  return std::string(EncodingName(info.param.encoding)) +
         (info.param.partitioned ? "_partitioned" : "_full");
}

// Keys per flush: distinct sizes, so tables of two DBs match by entries.
const size_t kFlushSizes[] = {1500, 2700, 4100, 5300, 6900, 9100};

// Every encoding of the list (filter/encodings.h), with full filters and,
// when `partitioned`, with partitioned ones too.
std::vector<Mode> AllModes(bool partitioned) {
  std::vector<Mode> modes;
  for (EncodingId encoding : AllEncodingIds()) {
    modes.push_back({encoding, false});
    if (partitioned) modes.push_back({encoding, true});
  }
  return modes;
}

// The smallest size above `bytes` that E's builder can write for these keys
// at 10 bits/key (0: none within 4 KiB), as its builder says: the size a
// filter of `bytes` would have grown to had its allocation held it (a
// LevelDB or compact filter grows by any byte, a cache-local one by a 64-byte
// line).
template <typename E>
size_t NextWritableSize(const std::vector<std::string>& keys, size_t bytes) {
  typename E::Builder builder(10.0);
  for (const std::string& key : keys) builder.AddKey(key);
  builder.FinishSize();  // Builds the filter where its sizes depend on it.
  for (size_t size = bytes + 1; size <= bytes + 4096; ++size) {
    if (const size_t fits = builder.FittingBuiltSize(size); fits > bytes) return fits;
  }
  return 0;
}

size_t NextWritableSize(EncodingId encoding, const std::vector<std::string>& keys,
                        size_t bytes) {
  return VisitEncoding(encoding, [&](auto e) { return NextWritableSize<decltype(e)>(keys, bytes); });
}

// Bytes of the allocation RocksDB holds a filter block in beyond the block
// and its trailer.
size_t Slack(size_t filter_bytes) {
  const size_t block = filter_bytes + kRocksDbBlockTrailerBytes;
  return AllocatorUsableSize(block) - block;
}

class DbMemorySizingTest : public ::testing::TestWithParam<Mode> {
 protected:
  void SetUp() override { EnsureRocksDbFilterPoliciesRegistered(); }

  // Table options from the string a user writes, parsed strictly.
  rocksdb::Options MakeOptions(bool optimize) {
    const Mode& mode = GetParam();
    std::string table_string =
        absl::StrFormat("filter_policy=sstfilter.bloom:10:%s;optimize_filters_for_memory=%s",
                        EncodingName(mode.encoding), optimize ? "true" : "false");
    if (mode.partitioned) {
      table_string +=
          ";partition_filters=true;index_type=kTwoLevelIndexSearch;metadata_block_size=1024";
    }
    rocksdb::ConfigOptions strict;
    strict.ignore_unsupported_options = false;
    strict.input_strings_escaped = false;
    rocksdb::BlockBasedTableOptions table;
    rocksdb::Status s =
        rocksdb::GetBlockBasedTableOptionsFromString(strict, {}, table_string, &table);
    EXPECT_TRUE(s.ok()) << s.ToString();
    EXPECT_NE(table.filter_policy, nullptr);
    EXPECT_EQ(table.optimize_filters_for_memory, optimize);
    rocksdb::Options options;
    options.create_if_missing = true;
    options.disable_auto_compactions = true;  // One table per flush, as written.
    options.write_buffer_size = 64 << 20;
    options.statistics = rocksdb::CreateDBStatistics();
    options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
    return options;
  }

  void Open(const TempDir& dir, bool optimize) {
    db_.reset();
    options_ = MakeOptions(optimize);
    ASSERT_TRUE(OpenDb(options_, dir.path(), &db_).ok());
  }

  // Writes keys_ in one flush per kFlushSizes entry.
  void WriteTables() {
    size_t next = 0;
    for (size_t size : kFlushSizes) {
      for (size_t i = 0; i < size; ++i, ++next) {
        ASSERT_TRUE(db_->Put(rocksdb::WriteOptions(), keys_[next], ValueFor(keys_[next])).ok());
      }
      ASSERT_TRUE(db_->Flush(rocksdb::FlushOptions()).ok());
    }
  }

  void ExpectAllFound(const char* stage) {
    std::string value;
    for (const std::string& key : keys_) {
      rocksdb::Status s = db_->Get(rocksdb::ReadOptions(), key, &value);
      ASSERT_TRUE(s.ok()) << stage << ": " << s.ToString();
      ASSERT_EQ(value, ValueFor(key)) << stage;
    }
    for (size_t base = 0; base < keys_.size(); base += 32) {
      std::vector<rocksdb::Slice> batch;
      for (size_t i = base; i < std::min(base + 32, keys_.size()); ++i) {
        batch.emplace_back(keys_[i]);
      }
      std::vector<rocksdb::PinnableSlice> values(batch.size());
      std::vector<rocksdb::Status> statuses(batch.size());
      db_->MultiGet(rocksdb::ReadOptions(), db_->DefaultColumnFamily(), batch.size(),
                    batch.data(), values.data(), statuses.data());
      for (size_t i = 0; i < batch.size(); ++i) {
        ASSERT_TRUE(statuses[i].ok()) << stage << " MultiGet: " << statuses[i].ToString();
      }
    }
  }

  // Filter bytes of each table, by its entry count.
  std::map<uint64_t, uint64_t> FilterSizes() {
    rocksdb::TablePropertiesCollection props;
    EXPECT_TRUE(db_->GetPropertiesOfAllTables(&props).ok());
    std::map<uint64_t, uint64_t> sizes;
    for (const auto& [file, p] : props) sizes[p->num_entries] = p->filter_size;
    return sizes;
  }

  // The keys of the flush that wrote `entries` keys.
  std::vector<std::string> FlushKeys(uint64_t entries) const {
    size_t start = 0;
    for (size_t size : kFlushSizes) {
      if (size == entries) return {keys_.begin() + start, keys_.begin() + start + size};
      start += size;
    }
    ADD_FAILURE() << "no flush wrote " << entries << " keys";
    return {};
  }

  static size_t TotalKeys() {
    size_t n = 0;
    for (size_t size : kFlushSizes) n += size;
    return n;
  }

  std::vector<std::string> keys_ = RandomKeys(TotalKeys(), 99);
  rocksdb::Options options_;
  std::unique_ptr<rocksdb::DB> db_;
};

TEST_P(DbMemorySizingTest, NoFalseNegativesThroughFlushCompactionReopen) {
  TempDir dir;
  Open(dir, /*optimize=*/true);
  WriteTables();
  ExpectAllFound("after flushes");
  ASSERT_TRUE(db_->CompactRange(rocksdb::CompactRangeOptions(), nullptr, nullptr).ok());
  ExpectAllFound("after compaction");
  Open(dir, /*optimize=*/true);
  ExpectAllFound("after reopen");
  // The filters still filter: absent keys mostly never reach a data block.
  // (At 3/4 of the target bytes, the smallest sizing allows, 10 bits/key
  // filters give under 4%; a filter that matches everything gives 100%.)
  const std::vector<std::string> absent = AbsentKeys(20000, 5);
  std::string value;
  for (const std::string& key : absent) {
    ASSERT_TRUE(db_->Get(rocksdb::ReadOptions(), key, &value).IsNotFound());
  }
  const uint64_t useful = testing::Ticker(options_, rocksdb::BLOOM_FILTER_USEFUL);
  EXPECT_GT(static_cast<double>(useful), 0.95 * static_cast<double>(absent.size()));
}

// Full filters only (a partitioned filter's size is its partitions' sum).
class DbMemorySizingFullTest : public DbMemorySizingTest {};

TEST_P(DbMemorySizingFullTest, FullFiltersFillTheirAllocation) {
  if (AllocatorUsableSize(1001) == 1001) {
    GTEST_SKIP() << "this allocator reports no size classes (a sanitizer's malloc)";
  }
  TempDir off_dir, on_dir;
  Open(off_dir, /*optimize=*/false);
  WriteTables();
  const std::map<uint64_t, uint64_t> off = FilterSizes();
  Open(on_dir, /*optimize=*/true);
  WriteTables();
  const std::map<uint64_t, uint64_t> on = FilterSizes();
  ASSERT_EQ(on.size(), std::size(kFlushSizes));
  ASSERT_EQ(off.size(), on.size());

  const EncodingId encoding = GetParam().encoding;
  bool off_wastes = false, sizes_differ = false;
  for (const auto& [entries, on_bytes] : on) {
    const uint64_t off_bytes = off.at(entries);
    SCOPED_TRACE(absl::StrFormat("%d entries: %d bytes off, %d on", entries, off_bytes, on_bytes));
    const std::vector<std::string> keys = FlushKeys(entries);
    const size_t next_on = NextWritableSize(encoding, keys, on_bytes);
    const size_t next_off = NextWritableSize(encoding, keys, off_bytes);
    ASSERT_GT(next_on, on_bytes);
    ASSERT_GT(next_off, off_bytes);
    // On: the next size the encoding can write would not fit the allocation.
    EXPECT_LT(Slack(on_bytes), next_on - on_bytes);
    // Never a larger allocation than the unsized filter's.
    EXPECT_LE(on_bytes + kRocksDbBlockTrailerBytes + Slack(on_bytes),
              off_bytes + kRocksDbBlockTrailerBytes + Slack(off_bytes));
    off_wastes |= Slack(off_bytes) >= next_off - off_bytes;
    sizes_differ |= on_bytes != off_bytes;
  }
  // Where the unsized filters leave room in their allocations for a larger
  // filter, sizing used it: the sizes changed.
  if (off_wastes) {
    EXPECT_TRUE(sizes_differ);
  }
  ::testing::Test::RecordProperty("off_wastes_a_granule", off_wastes ? "yes" : "no");
}

INSTANTIATE_TEST_SUITE_P(Encodings, DbMemorySizingTest, ::testing::ValuesIn(AllModes(true)),
                         ModeName);
INSTANTIATE_TEST_SUITE_P(Encodings, DbMemorySizingFullTest, ::testing::ValuesIn(AllModes(false)),
                         ModeName);

}  // namespace
}  // namespace sstfilter

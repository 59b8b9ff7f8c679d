// sstfilter's leveldb::FilterPolicy (table/leveldb/) against Debian's
// libleveldb 1.23: its names, its bytes (filters and whole tables equal the
// built-in policy's with the LevelDB encoding), the hash variant it matches
// (LevelDB >= 1.18: unsigned tail bytes), reading every encoding, and option
// errors.
#include "table/leveldb/leveldb_filter_policy.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "filter/encoding_id.h"
#include "filter/encodings.h"
#include "filter/filter_options.h"
#include "gtest/gtest.h"
#include "leveldb/env.h"
#include "leveldb/filter_policy.h"
#include "leveldb/options.h"
#include "leveldb/slice.h"
#include "leveldb/table_builder.h"
#include "tests/filter_test_util.h"

namespace sstfilter {
namespace {

using Policy = std::unique_ptr<const leveldb::FilterPolicy>;

Policy Ours(std::string_view id) {
  auto policy = NewLevelDbFilterPolicyFromString(id);
  EXPECT_TRUE(policy.ok()) << id << ": " << policy.status();
  return policy.ok() ? *std::move(policy) : nullptr;
}

Policy Builtin(int bits_per_key) { return Policy(leveldb::NewBloomFilterPolicy(bits_per_key)); }

std::vector<leveldb::Slice> Slices(const std::vector<std::string>& keys) {
  return std::vector<leveldb::Slice>(keys.begin(), keys.end());
}

// policy's filter of keys, appended to a prefix that must stay untouched.
std::string Filter(const leveldb::FilterPolicy& policy, const std::vector<std::string>& keys) {
  const std::vector<leveldb::Slice> slices = Slices(keys);
  std::string dst = "prefix";
  policy.CreateFilter(slices.data(), static_cast<int>(slices.size()), &dst);
  EXPECT_EQ(dst.substr(0, 6), "prefix") << policy.Name() << " changed what dst held";
  return dst.substr(6);
}

bool Matches(const leveldb::FilterPolicy& policy, const std::string& key,
             const std::string& filter) {
  return policy.KeyMayMatch(leveldb::Slice(key), leveldb::Slice(filter));
}

TEST(LevelDbPolicyTest, NamesFollowTheEncoding) {
  EXPECT_STREQ(Ours("sstfilter.bloom:10")->Name(), Builtin(10)->Name());
  EXPECT_STREQ(Ours("sstfilter.bloom:7.5:leveldb")->Name(), "leveldb.BuiltinBloomFilter2");
  EXPECT_STREQ(Ours("sstfilter.bloom:10:cache_local")->Name(), "sstfilter.bloom");
}

// Random keys of 0..40 bytes, with some repeated (LevelDB passes duplicates).
std::vector<std::string> KeysWithDuplicates(size_t n, std::mt19937_64& rng) {
  std::vector<std::string> keys = testing::RandomBytesKeys(n, 40, rng);
  for (size_t i = 0; i < n / 4; ++i) keys.push_back(keys[rng() % n]);
  return keys;
}

// Keys of 41 random bytes: none is one of KeysWithDuplicates.
std::vector<std::string> AbsentKeys(size_t n, std::mt19937_64& rng) {
  std::vector<std::string> keys(n, std::string(41, '\0'));
  for (std::string& key : keys) {
    for (char& c : key) c = static_cast<char>(rng());
  }
  return keys;
}

TEST(LevelDbPolicyTest, LevelDbEncodingWritesTheBuiltinBytes) {
  std::mt19937_64 rng(11);
  for (int bits_per_key : {1, 2, 3, 5, 8, 10, 13, 16, 20, 25, 30}) {
    const Policy builtin = Builtin(bits_per_key);
    const Policy ours = Ours("sstfilter.bloom:" + std::to_string(bits_per_key));
    for (size_t n : {0, 1, 2, 7, 20, 55, 200, 3000}) {
      SCOPED_TRACE(::testing::Message() << n << " keys at " << bits_per_key << " bits/key");
      const std::vector<std::string> keys = KeysWithDuplicates(n, rng);
      const std::string filter = Filter(*builtin, keys);
      ASSERT_EQ(testing::Hex(Filter(*ours, keys)), testing::Hex(filter));
      for (const std::string& key : testing::RandomBytesKeys(300, 40, rng)) {
        ASSERT_EQ(Matches(*ours, key, filter), Matches(*builtin, key, filter));
      }
    }
  }
}

// Fractional bits/key: LevelDB's built-in takes an int, so no built-in
// policy writes these bytes; each filter carries its k and length, so the
// built-in reads them, with no false negative and our answers.
TEST(LevelDbPolicyTest, FractionalBitsDifferFromTheBuiltinButReadThere) {
  std::mt19937_64 rng(12);
  const std::vector<std::string> keys = KeysWithDuplicates(100, rng);
  const Policy ours = Ours("sstfilter.bloom:7.5");
  const std::string filter = Filter(*ours, keys);
  EXPECT_NE(filter, Filter(*Builtin(7), keys));
  EXPECT_NE(filter, Filter(*Builtin(8), keys));
  const Policy builtin = Builtin(10);  // Its bits/key only matter for writing.
  for (const std::string& key : keys) ASSERT_TRUE(Matches(*builtin, key, filter));
  int false_positives = 0;
  for (const std::string& key : AbsentKeys(2000, rng)) {
    const bool builtin_answer = Matches(*builtin, key, filter);
    ASSERT_EQ(Matches(*ours, key, filter), builtin_answer);
    false_positives += builtin_answer;
  }
  EXPECT_LT(false_positives, 2000 / 5);  // A working filter, not "always true".
}

// Whatever the policy writes, it reads every encoding of the list (by the
// final byte): a policy per encoding reads the filters of all of them, and
// LevelDB's own.
TEST(LevelDbPolicyTest, ReadsEveryEncoding) {
  std::mt19937_64 rng(13);
  const std::vector<std::string> keys = KeysWithDuplicates(500, rng);
  const std::vector<std::string> absent = AbsentKeys(2000, rng);
  std::vector<Policy> policies;
  std::vector<std::string> filters = {Filter(*Builtin(10), keys)};
  for (EncodingId encoding : AllEncodingIds()) {
    FilterOptions options;
    options.encoding = encoding;
    policies.push_back(Ours(FormatPolicyId(options)));
    filters.push_back(Filter(*policies.back(), keys));
  }
  ASSERT_EQ(filters[0], filters[1 + static_cast<size_t>(EncodingId::kLevelDb)])
      << "the LevelDB encoding writes LevelDB's bytes";
  for (size_t i = 1; i < filters.size(); ++i) {
    for (size_t j = 1; j < i; ++j) {
      EXPECT_NE(filters[i].back(), filters[j].back()) << "encodings " << i << " and " << j;
    }
  }
  for (const Policy& reader : policies) {
    SCOPED_TRACE(reader->Name());
    for (const std::string& filter : filters) {
      for (const std::string& key : keys) ASSERT_TRUE(Matches(*reader, key, filter));
      int false_positives = 0;
      for (const std::string& key : absent) false_positives += Matches(*reader, key, filter);
      EXPECT_LT(false_positives, 2000 * 3 / 100);  // Probed: ~1% at 10 bits/key.
    }
  }
}

// What our policy must answer for any bytes: the reader of the encoding
// that recognises them (filter/encodings.h), "may match" when none does.
bool ReaderAnswer(const std::string& key, std::string_view filter) {
  return VisitEncodingOf(filter, [&](auto encoding) {
    return typename decltype(encoding)::Reader(filter).MayMatch(key);
  });
}

class LevelDbPolicyReadsTest : public ::testing::TestWithParam<EncodingId> {};

// LevelDB hands KeyMayMatch bytes, never a parsed filter: the policy reads
// them for each query (OneShotQuery, filter/filter_policy.h) with the
// readers' answers. Filters of the encoding at LevelDB's per-block sizes and
// larger, as written, then cut short and with trailer bytes changed
// (damaged, truncated, unknown tags), read by policies writing every
// encoding; libleveldb agrees on every LevelDB-format byte string.
TEST_P(LevelDbPolicyReadsTest, EveryEncodingAsItsReader) {
  std::mt19937_64 rng(15);
  FilterOptions options;
  options.encoding = GetParam();
  const Policy writer = NewLevelDbFilterPolicy(options).value();
  std::vector<Policy> readers;
  for (EncodingId encoding : AllEncodingIds()) {
    options.encoding = encoding;
    readers.push_back(NewLevelDbFilterPolicy(options).value());
  }
  const Policy builtin = Builtin(10);
  const std::vector<std::string> absent = AbsentKeys(64, rng);
  for (size_t n : {0, 1, 4, 33, 98, 2000}) {
    const std::vector<std::string> keys = KeysWithDuplicates(n, rng);
    const std::string filter = Filter(*writer, keys);
    SCOPED_TRACE(::testing::Message() << n << " keys, " << filter.size() << " bytes");
    for (const std::string& key : keys) ASSERT_TRUE(Matches(*writer, key, filter));
    std::vector<std::string> variants = {filter};
    for (size_t cut = 1; cut <= std::min<size_t>(filter.size(), 20); ++cut) {
      variants.push_back(filter.substr(0, filter.size() - cut));
    }
    for (size_t back = 1; back <= std::min<size_t>(filter.size(), 20); ++back) {
      for (int v : {0, 1, 2, 4, 6, 30, 31, 33, 67, 70, 0xff}) {
        std::string damaged = filter;
        damaged[filter.size() - back] = static_cast<char>(v);
        variants.push_back(std::move(damaged));
      }
    }
    for (const std::string& bytes : variants) {
      const bool leveldb_format =
          bytes.size() < 2 || static_cast<unsigned char>(bytes.back()) <= 30;
      for (const std::vector<std::string>* set : {&keys, &absent}) {
        for (const std::string& key : *set) {
          const bool expected = ReaderAnswer(key, bytes);
          for (const Policy& reader : readers) {
            ASSERT_EQ(Matches(*reader, key, bytes), expected)
                << reader->Name() << ", filter " << testing::Hex(bytes);
          }
          if (leveldb_format) {
            ASSERT_EQ(Matches(*builtin, key, bytes), expected) << testing::Hex(bytes);
          }
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Encodings, LevelDbPolicyReadsTest, ::testing::ValuesIn(AllEncodingIds()),
                         [](const ::testing::TestParamInfo<EncodingId>& info) {
                           return std::string(EncodingName(info.param));
                         });

// ---- The hash variant: LevelDB >= 1.18 reads the 1-3 tail bytes unsigned ----

// LevelDB's Bloom hash and filter, written here from the published design
// (docs/design.md#the-leveldb-hash) for the test only, in both tail
// variants: before 1.18 the tail bytes were `char`, sign-extended on x86
// (docs/design.md#tail-bytes-before-leveldb-118).
enum class Tail { kUnsigned, kSignExtended };

uint32_t VariantHash(std::string_view key, Tail tail) {
  constexpr uint32_t kM = 0xc6a4a793;
  const auto* b = reinterpret_cast<const unsigned char*>(key.data());
  const size_t n = key.size();
  uint32_t h = 0xbc9f1d34 ^ static_cast<uint32_t>(n * kM);
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    h += uint32_t{b[i]} | uint32_t{b[i + 1]} << 8 | uint32_t{b[i + 2]} << 16 |
         uint32_t{b[i + 3]} << 24;
    h *= kM;
    h ^= h >> 16;
  }
  auto tail_byte = [&](size_t j) -> uint32_t {
    if (tail == Tail::kUnsigned) return b[j];
    return static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(b[j])));
  };
  const size_t rest = n - i;
  if (rest == 0) return h;
  if (rest == 3) h += tail_byte(i + 2) << 16;
  if (rest >= 2) h += tail_byte(i + 1) << 8;
  h += tail_byte(i);
  h *= kM;
  h ^= h >> 24;
  return h;
}

std::string VariantFilter(const std::vector<std::string>& keys, int bits_per_key, Tail tail) {
  const int k = std::max(1, std::min(30, static_cast<int>(bits_per_key * 0.69)));
  size_t bits = std::max<size_t>(keys.size() * bits_per_key, 64);
  const size_t bytes = (bits + 7) / 8;
  bits = bytes * 8;
  std::string filter(bytes, '\0');
  for (const std::string& key : keys) {
    uint32_t h = VariantHash(key, tail);
    const uint32_t delta = (h >> 17) | (h << 15);
    for (int j = 0; j < k; ++j) {
      const uint32_t pos = h % bits;
      filter[pos / 8] |= static_cast<char>(1 << (pos % 8));
      h += delta;
    }
  }
  filter.push_back(static_cast<char>(k));
  return filter;
}

// Keys of length % 4 == rest (1..3) whose tail bytes are all >= 0x80 (high)
// or all < 0x80.
std::vector<std::string> TailKeys(size_t n, bool high_tail, std::mt19937_64& rng) {
  std::vector<std::string> keys;
  for (size_t i = 0; i < n; ++i) {
    const size_t words = rng() % 4;
    const size_t rest = 1 + rng() % 3;
    std::string key(4 * words + rest, '\0');
    for (char& c : key) c = static_cast<char>(rng());
    for (size_t j = 4 * words; j < key.size(); ++j) {
      key[j] = static_cast<char>(high_tail ? (key[j] | 0x80) : (key[j] & 0x7f));
    }
    keys.push_back(std::move(key));
  }
  return keys;
}

TEST(LevelDbPolicyTest, MatchesLevelDb118HashOnHighTailBytes) {
  std::mt19937_64 rng(14);
  const std::vector<std::string> boundary = TailKeys(2000, /*high_tail=*/true, rng);
  const std::vector<std::string> low_tail = TailKeys(2000, /*high_tail=*/false, rng);
  // The boundary: the variants differ on every high-tail key, on no other.
  for (const std::string& key : boundary) {
    ASSERT_NE(VariantHash(key, Tail::kUnsigned), VariantHash(key, Tail::kSignExtended))
        << testing::Hex(key);
  }
  for (const std::string& key : low_tail) {
    ASSERT_EQ(VariantHash(key, Tail::kUnsigned), VariantHash(key, Tail::kSignExtended));
  }
  for (int bits_per_key : {6, 10, 20}) {
    SCOPED_TRACE(::testing::Message() << bits_per_key << " bits/key");
    const Policy builtin = Builtin(bits_per_key);
    const Policy ours = Ours("sstfilter.bloom:" + std::to_string(bits_per_key));
    // The reference is libleveldb's, and the test's own unsigned variant is it.
    const std::string low_filter = Filter(*builtin, low_tail);
    EXPECT_EQ(VariantFilter(low_tail, bits_per_key, Tail::kSignExtended), low_filter);
    const std::string filter = Filter(*builtin, boundary);
    ASSERT_EQ(VariantFilter(boundary, bits_per_key, Tail::kUnsigned), filter);
    EXPECT_NE(VariantFilter(boundary, bits_per_key, Tail::kSignExtended), filter);
    // Ours is libleveldb 1.23's, key by key as well as for the whole set.
    EXPECT_EQ(Filter(*ours, boundary), filter);
    // (One-key filters of the two variants may coincide: 64 bits, and the
    // hashes can agree mod 64. The hashes themselves always differ, above.)
    for (const std::string& key : boundary) {
      ASSERT_EQ(Filter(*ours, {key}), Filter(*builtin, {key})) << testing::Hex(key);
    }
  }
}

// ---- Whole tables: LevelDB's TableBuilder with either policy ----

// A leveldb::WritableFile into a string.
class StringFile final : public leveldb::WritableFile {
 public:
  leveldb::Status Append(const leveldb::Slice& data) override {
    contents_.append(data.data(), data.size());
    return leveldb::Status::OK();
  }
  leveldb::Status Close() override { return leveldb::Status::OK(); }
  leveldb::Status Flush() override { return leveldb::Status::OK(); }
  leveldb::Status Sync() override { return leveldb::Status::OK(); }
  const std::string& contents() const { return contents_; }

 private:
  std::string contents_;
};

std::string BuildTable(const leveldb::FilterPolicy& policy) {
  leveldb::Options options;
  options.filter_policy = &policy;
  StringFile file;
  leveldb::TableBuilder builder(options, &file);
  for (int i = 0; i < 20000; ++i) {
    char key[16];
    std::snprintf(key, sizeof(key), "key%08d", i);
    builder.Add(key, std::string(i % 50, 'v'));
  }
  EXPECT_TRUE(builder.Finish().ok());
  return file.contents();
}

TEST(LevelDbPolicyTest, TablesEqualTheBuiltinsWithTheLevelDbEncoding) {
  const std::string builtin = BuildTable(*Builtin(10));
  ASSERT_NE(builtin.find("filter.leveldb.BuiltinBloomFilter2"), std::string::npos);
  EXPECT_TRUE(BuildTable(*Ours("sstfilter.bloom:10")) == builtin) << "table bytes differ";
  const std::string cache_local = BuildTable(*Ours("sstfilter.bloom:10:cache_local"));
  EXPECT_NE(cache_local.find("filter.sstfilter.bloom"), std::string::npos);
  EXPECT_EQ(cache_local.find("filter.leveldb.BuiltinBloomFilter2"), std::string::npos);
}

// ---- Option errors: those of the shared parser, naming the value ----

TEST(LevelDbPolicyTest, BadOptionStringsNameTheValue) {
  const struct {
    const char* id;
    const char* named;
  } kBad[] = {
      {"sstfilter.bloom:abc", "abc"},
      {"sstfilter.bloom:0", "0"},
      {"sstfilter.bloom:-3", "-3"},
      {"sstfilter.bloom:10:ribbon", "ribbon"},
      {"sstfilter.bloom:10:", "''"},
      {"leveldb:10", "leveldb:10"},
      {"sstfilter.bloom:10:leveldb:x", "sstfilter.bloom:10:leveldb:x"},
      {"sstfilter.bloom:10:cache_local:compact_from_level:-1", "compact_from_level=-1"},
  };
  for (const auto& bad : kBad) {
    SCOPED_TRACE(bad.id);
    const auto policy = NewLevelDbFilterPolicyFromString(bad.id);
    ASSERT_FALSE(policy.ok());
    EXPECT_EQ(policy.status(), ParsePolicyId(bad.id).status());
    EXPECT_TRUE(absl::IsInvalidArgument(policy.status()));
    EXPECT_NE(policy.status().message().find(bad.named), std::string::npos)
        << policy.status();
  }
}

TEST(LevelDbPolicyTest, BadOptionsNameTheValue) {
  FilterOptions bad_bits;
  bad_bits.bits_per_key = -1;
  FilterOptions bad_fp;
  bad_fp.fp_rate = 1.5;
  FilterOptions bad_format;
  bad_format.encoding = static_cast<EncodingId>(7);
  for (const FilterOptions& options : {bad_bits, bad_fp, bad_format}) {
    const auto policy = NewLevelDbFilterPolicy(options);
    ASSERT_FALSE(policy.ok());
    EXPECT_EQ(policy.status(), ResolveFilterOptions(options).status());
  }
  EXPECT_NE(NewLevelDbFilterPolicy(bad_fp).status().message().find("fp_rate=1.5"),
            std::string::npos);
  FilterOptions by_fp_rate;
  by_fp_rate.fp_rate = 0.01;
  EXPECT_TRUE(NewLevelDbFilterPolicy(by_fp_rate).ok());
}

// LevelDB's FilterPolicy is never told a table's level: an id that parses
// (RocksDB takes it) is refused here, saying why, rather than ignored.
TEST(LevelDbPolicyTest, CompactFromLevelIsRefused) {
  for (const char* id : {"sstfilter.bloom:10:cache_local:compact_from_level:2",
                         "sstfilter.bloom:10:compact_from_level:0"}) {
    SCOPED_TRACE(id);
    ASSERT_TRUE(ParsePolicyId(id).ok());
    const auto policy = NewLevelDbFilterPolicyFromString(id);
    ASSERT_FALSE(policy.ok());
    EXPECT_TRUE(absl::IsInvalidArgument(policy.status()));
    EXPECT_NE(policy.status().message().find("needs a host that tells the policy each "
                                             "table's level (RocksDB)"),
              std::string::npos)
        << policy.status();
  }
  EXPECT_TRUE(NewLevelDbFilterPolicyFromString("sstfilter.bloom:10:cache_local").ok());
}

}  // namespace
}  // namespace sstfilter

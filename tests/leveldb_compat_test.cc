// Bit-exactness with Debian's libleveldb: our builder writes the bytes of
// LevelDB's NewBloomFilterPolicy(bits_per_key)->CreateFilter, and our reader
// answers as LevelDB's KeyMayMatch does on any filter, well-formed or not.
#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "filter/filter_policy.h"
#include "filter/leveldb/bloom.h"
#include "gtest/gtest.h"
#include "leveldb/filter_policy.h"
#include "leveldb/slice.h"
#include "tests/filter_test_util.h"

namespace sstfilter {
namespace {

std::unique_ptr<const leveldb::FilterPolicy> LevelDbPolicy(int bits_per_key) {
  return std::unique_ptr<const leveldb::FilterPolicy>(
      leveldb::NewBloomFilterPolicy(bits_per_key));
}

// Keys of 0..100 arbitrary bytes, none in *seen, all added to it.
std::vector<std::string> NewDistinctKeys(size_t n, std::mt19937_64& rng,
                                         absl::flat_hash_set<std::string>* seen) {
  std::vector<std::string> keys;
  keys.reserve(n);
  while (keys.size() < n) {
    std::string key = testing::RandomBytesKey(100, rng);
    if (seen->insert(key).second) keys.push_back(std::move(key));
  }
  return keys;
}

// Where two byte strings first differ, for a readable failure.
std::string FirstDifference(const std::string& ours, const std::string& theirs) {
  if (ours.size() != theirs.size()) {
    return "sizes " + std::to_string(ours.size()) + " vs " + std::to_string(theirs.size());
  }
  for (size_t i = 0; i < ours.size(); ++i) {
    if (ours[i] != theirs[i]) return "first difference at byte " + std::to_string(i);
  }
  return "equal";
}

// Key counts: the edges around the 64-bit minimum and byte rounding, the
// largest size, and log-uniform sizes in between.
std::vector<size_t> KeyCounts(std::mt19937_64& rng) {
  std::vector<size_t> counts = {0, 1, 2, 3, 6, 7, 8, 9, 63, 64, 65, 100000};
  std::uniform_real_distribution<double> log_size(0, std::log(100000.0));
  while (counts.size() < 200) {
    counts.push_back(static_cast<size_t>(std::exp(log_size(rng))));
  }
  return counts;
}

TEST(LevelDbCompatTest, FilterBytesAndAnswersMatchLevelDb) {
  std::mt19937_64 rng(2024);
  const std::vector<size_t> counts = KeyCounts(rng);
  for (size_t set = 0; set < counts.size(); ++set) {
    const size_t n = counts[set];
    // Every bits/key 1..30 more than twice; the order mixes sizes and k.
    const int bits_per_key = 1 + static_cast<int>((set * 7) % 30);
    SCOPED_TRACE(::testing::Message() << n << " keys at " << bits_per_key << " bits/key");

    absl::flat_hash_set<std::string> seen;
    const std::vector<std::string> keys = NewDistinctKeys(n, rng, &seen);
    const std::vector<std::string> absent = NewDistinctKeys(1000, rng, &seen);
    const std::vector<std::string_view> views(keys.begin(), keys.end());
    const std::vector<leveldb::Slice> slices(keys.begin(), keys.end());

    // Both append to what is already in dst.
    const auto leveldb_policy = LevelDbPolicy(bits_per_key);
    std::string theirs = "prefix";
    leveldb_policy->CreateFilter(slices.data(), static_cast<int>(slices.size()), &theirs);
    std::string ours = "prefix";
    AppendLevelDbBloomFilter(views, bits_per_key, &ours);
    ASSERT_EQ(ours, theirs) << FirstDifference(ours, theirs);

    FilterOptions options;
    options.bits_per_key = bits_per_key;
    auto policy = NewFilterPolicy(options);
    ASSERT_TRUE(policy.ok()) << policy.status();
    std::string via_policy = "prefix";
    (*policy)->CreateFilter(views, &via_policy);
    ASSERT_EQ(via_policy, theirs) << FirstDifference(via_policy, theirs);

    // Our reader on LevelDB's filter: every key present, and the same answer
    // as LevelDB for absent ones (false positives included).
    const std::string_view filter = std::string_view(theirs).substr(6);
    const leveldb::Slice filter_slice(filter.data(), filter.size());
    const LevelDbBloomReader reader(filter);
    for (size_t i = 0; i < keys.size(); i += 1 + keys.size() / 2000) {
      ASSERT_TRUE(reader.MayMatch(keys[i])) << "key " << i;
      ASSERT_TRUE(leveldb_policy->KeyMayMatch(slices[i], filter_slice));
    }
    const std::vector<std::string_view> absent_views(absent.begin(), absent.end());
    std::unique_ptr<bool[]> batch(new bool[absent.size()]);
    reader.MayMatchBatch(absent_views, batch.get());
    int false_positives = 0;
    for (size_t i = 0; i < absent.size(); ++i) {
      const bool expected = leveldb_policy->KeyMayMatch(leveldb::Slice(absent[i]), filter_slice);
      false_positives += expected;
      ASSERT_EQ(reader.MayMatch(absent[i]), expected) << "absent key " << i;
      ASSERT_EQ(batch[i], expected) << "absent key " << i << " (batch)";
      ASSERT_EQ((*policy)->KeyMayMatch(absent[i], filter), expected);
    }
    if (n == 0) {
      EXPECT_EQ(false_positives, 0);  // LevelDB's empty filter.
    }
  }
}

TEST(LevelDbCompatTest, AnyBytesReadAsLevelDbReadsThem) {
  // Damaged or foreign bytes: LevelDB's reader treats < 2 bytes as empty,
  // k > 30 as "may match" and k = 0 as a filter without probes. Ours agrees.
  std::mt19937_64 rng(99);
  const auto leveldb_policy = LevelDbPolicy(10);
  absl::flat_hash_set<std::string> seen;
  const std::vector<std::string> keys = NewDistinctKeys(40, rng, &seen);
  for (int round = 0; round < 2000; ++round) {
    std::string garbage(rng() % 300, '\0');
    for (char& c : garbage) c = static_cast<char>(rng());
    if (!garbage.empty() && round % 3 != 0) {
      garbage.back() = static_cast<char>(rng() % 32);  // Mostly a real k.
    }
    const LevelDbBloomReader reader(garbage);
    const leveldb::Slice garbage_slice(garbage);
    for (const std::string& key : keys) {
      ASSERT_EQ(reader.MayMatch(key),
                leveldb_policy->KeyMayMatch(leveldb::Slice(key), garbage_slice))
          << "filter of " << garbage.size() << " bytes, k byte "
          << (garbage.empty() ? -1 : static_cast<unsigned char>(garbage.back()));
    }
  }
}

}  // namespace
}  // namespace sstfilter

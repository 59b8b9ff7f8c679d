// LevelDbBloomHash against LevelDB's own hash, for every length and byte.
//
// libleveldb does not export leveldb::Hash, but its Bloom reader reveals it:
// with k = 1 the only probe of a key is bit `hash % bits`. A filter whose
// bit p is set exactly when bit j of p is set answers "may match" exactly
// when bit j of (hash % bits) is set, so one such filter per bit j reads
// hash % bits out of LevelDB's KeyMayMatch. Two moduli whose least common
// multiple exceeds 2^32 then give the whole hash (Chinese remainder theorem).
#include "filter/leveldb/hash.h"

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "leveldb/filter_policy.h"
#include "leveldb/slice.h"
#include "tests/filter_test_util.h"

namespace sstfilter {
namespace {

using testing::Hex;

// Reads `LevelDB hash % modulus` through LevelDB's Bloom reader.
class LevelDbHashRemainder {
 public:
  // REQUIRES: modulus is a multiple of 8 (a filter is whole bytes).
  explicit LevelDbHashRemainder(uint32_t modulus) {
    for (int j = 0; (uint64_t{1} << j) < modulus; ++j) {
      std::string filter(modulus / 8, '\0');
      for (uint32_t p = 0; p < modulus; ++p) {
        if ((p >> j) & 1) filter[p / 8] |= static_cast<char>(1 << (p % 8));
      }
      filter.push_back(1);  // k = 1.
      bit_planes_.push_back(std::move(filter));
    }
  }

  uint32_t Of(const std::string& key) const {
    uint32_t r = 0;
    for (size_t j = 0; j < bit_planes_.size(); ++j) {
      if (policy_->KeyMayMatch(leveldb::Slice(key), leveldb::Slice(bit_planes_[j]))) {
        r |= uint32_t{1} << j;
      }
    }
    return r;
  }

 private:
  std::unique_ptr<const leveldb::FilterPolicy> policy_{
      leveldb::NewBloomFilterPolicy(1)};  // Only its reader is used.
  std::vector<std::string> bit_planes_;
};

// LevelDB's Hash(key, size, 0xbc9f1d34), recovered from two remainders.
class LevelDbHashOracle {
 public:
  uint32_t Hash(const std::string& key) const {
    const uint32_t r1 = low_.Of(key);   // hash mod 2^18: its low 18 bits.
    const uint32_t r2 = high_.Of(key);  // hash mod 8 * 32769.
    // lcm(2^18, 8 * 32769) = 2^18 * 32769 > 2^32: exactly one candidate fits.
    for (uint64_t h = r1; h < (uint64_t{1} << 32); h += kLowModulus) {
      if (h % kHighModulus == r2) return static_cast<uint32_t>(h);
    }
    ADD_FAILURE() << "no 32-bit value has remainders " << r1 << ", " << r2;
    return 0;
  }

 private:
  static constexpr uint32_t kLowModulus = uint32_t{1} << 18;
  static constexpr uint32_t kHighModulus = 8 * 32769;
  LevelDbHashRemainder low_{kLowModulus};
  LevelDbHashRemainder high_{kHighModulus};
};

const LevelDbHashOracle& Oracle() {
  static const auto* oracle = new LevelDbHashOracle();
  return *oracle;
}

void ExpectSameAsLevelDb(const std::string& key) {
  EXPECT_EQ(LevelDbBloomHash(key), Oracle().Hash(key))
      << "key of " << key.size() << " bytes: " << Hex(key);
}

TEST(LevelDbHashTest, OracleRecoversKnownHashes) {
  // The oracle itself must be right, or the comparisons below prove nothing.
  // The empty input hashes to the seed (nothing is mixed in).
  EXPECT_EQ(Oracle().Hash(""), kLevelDbBloomSeed);
  EXPECT_EQ(Oracle().Hash(std::string("\x62", 1)), 0xef1345c4u);
}

TEST(LevelDbHashTest, GoldenValues) {
  // Pinned so that the hash (and with it every filter) cannot change by
  // accident; each value was read from libleveldb by the oracle above.
  struct Golden {
    std::string key;
    uint32_t hash;
  };
  const Golden goldens[] = {
      {"", 0xbc9f1d34},
      {std::string("\x62", 1), 0xef1345c4},
      {std::string("\xc3\x97", 2), 0x5b663814},
      {std::string("\xe2\x99\xa5", 3), 0x323c078f},
      {std::string("\xe1\x80\xb9\x32", 4), 0xed21633a},
      {"hello", 0xf795964e},
      {"hello world, this is a longer key!", 0x05ca9381},
      {std::string(7, '\xff'), 0x581c1aab},
      {std::string(9, '\0'), 0x89c3ee3e},
  };
  for (const Golden& g : goldens) {
    EXPECT_EQ(LevelDbBloomHash(g.key), g.hash) << "key " << Hex(g.key);
    EXPECT_EQ(Oracle().Hash(g.key), g.hash) << "key " << Hex(g.key);
  }
}

TEST(LevelDbHashTest, SeedIsMixedIn) {
  const std::string key = "seed";
  EXPECT_EQ(LevelDbBloomHash(key), LevelDbHash(key.data(), key.size(), kLevelDbBloomSeed));
  EXPECT_NE(LevelDbHash(key.data(), key.size(), 0),
            LevelDbHash(key.data(), key.size(), kLevelDbBloomSeed));
  EXPECT_EQ(LevelDbHash(nullptr, 0, 0x12345678), 0x12345678u);
}

TEST(LevelDbHashTest, EveryLengthMatchesLevelDb) {
  // Random bytes over the whole 0..255 range, so most keys have bytes >= 0x80
  // (where a signed-char implementation would differ), every tail length 0..3
  // and every word count up to 64.
  std::mt19937_64 rng(301);
  for (size_t len = 0; len <= 260; ++len) {
    for (int rep = 0; rep < 16; ++rep) {
      std::string key(len, '\0');
      for (char& c : key) c = static_cast<char>(rng());
      ExpectSameAsLevelDb(key);
    }
  }
}

TEST(LevelDbHashTest, EveryByteValueInEveryTailPosition) {
  // Each byte value alone, and in each position of a 1..3-byte tail after
  // zero or one full word.
  for (int b = 0; b < 256; ++b) {
    const char c = static_cast<char>(b);
    for (size_t words : {0, 1}) {
      for (size_t tail = 1; tail <= 3; ++tail) {
        for (size_t pos = 0; pos < tail; ++pos) {
          std::string key(4 * words + tail, 'k');
          key[4 * words + pos] = c;
          ExpectSameAsLevelDb(key);
        }
      }
      std::string word(4 * words + 4, 'w');  // Byte inside a full word.
      word[4 * words + static_cast<size_t>(b) % 4] = c;
      ExpectSameAsLevelDb(word);
    }
  }
}

TEST(LevelDbHashTest, HighBytesOfEveryLength) {
  for (size_t len = 0; len <= 16; ++len) {
    ExpectSameAsLevelDb(std::string(len, '\xff'));
    ExpectSameAsLevelDb(std::string(len, '\x80'));
    ExpectSameAsLevelDb(std::string(len, '\0'));
  }
}

}  // namespace
}  // namespace sstfilter

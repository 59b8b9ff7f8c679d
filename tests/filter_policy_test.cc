#include "filter/filter_policy.h"

#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>
#include <random>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "filter/bloom_math.h"
#include "filter/encodings.h"
#include "filter/leveldb/bloom.h"
#include "gtest/gtest.h"
#include "tests/filter_test_util.h"

// Every operator new of this binary counts here (OneShotQuery allocates
// nothing). Each replaced new has its delete replaced, so sanitizers see
// malloc and free in pairs; the aligned forms stay the library's, pairs too.
namespace {
std::atomic<size_t> g_allocations{0};
void* CountedMalloc(size_t n) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(n == 0 ? 1 : n);
}
void* CountedNew(size_t n) {
  if (void* p = CountedMalloc(n)) return p;
  throw std::bad_alloc();
}
}  // namespace
void* operator new(size_t n) { return CountedNew(n); }
void* operator new[](size_t n) { return CountedNew(n); }
void* operator new(size_t n, const std::nothrow_t&) noexcept { return CountedMalloc(n); }
void* operator new[](size_t n, const std::nothrow_t&) noexcept { return CountedMalloc(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

namespace sstfilter {
namespace {

std::unique_ptr<const FilterPolicy> MakePolicy(const FilterOptions& options) {
  auto policy = NewFilterPolicy(options);
  EXPECT_TRUE(policy.ok()) << policy.status();
  return policy.ok() ? std::move(*policy) : nullptr;
}

TEST(FilterPolicyTest, NameAndRoundTrip) {
  const auto policy = MakePolicy(FilterOptions());
  ASSERT_NE(policy, nullptr);
  EXPECT_STREQ(policy->Name(), "sstfilter.bloom");
  const std::vector<std::string_view> keys = {"apple", "banana", "", "cherry"};
  std::string dst = "earlier filter";
  policy->CreateFilter(keys, &dst);
  ASSERT_EQ(dst.substr(0, 14), "earlier filter");
  const std::string_view filter = std::string_view(dst).substr(14);
  EXPECT_EQ(filter.size(), LevelDbFilterBits(keys.size(), 10) / 8 + 1);
  for (std::string_view key : keys) EXPECT_TRUE(policy->KeyMayMatch(key, filter)) << key;
  EXPECT_FALSE(policy->KeyMayMatch("durian", filter));
  EXPECT_FALSE(policy->KeyMayMatch("apple", ""));  // Empty filter.
  EXPECT_TRUE(policy->KeyMayMatch("apple", std::string(8, '\0') + '\x80'));  // Reserved k.
}

TEST(FilterPolicyTest, BuildsTheLevelDbEncoding) {
  FilterOptions options;
  options.bits_per_key = 7.5;
  const auto policy = MakePolicy(options);
  ASSERT_NE(policy, nullptr);
  std::vector<std::string> storage;
  for (int i = 0; i < 500; ++i) storage.push_back("key" + std::to_string(i));
  const std::vector<std::string_view> keys(storage.begin(), storage.end());
  std::string ours, direct;
  policy->CreateFilter(keys, &ours);
  AppendLevelDbBloomFilter(keys, 7.5, &direct);
  EXPECT_EQ(ours, direct);
}

// The format option is honoured on both sides: filters are written in it,
// and KeyMayMatch reads every encoding (a filter of n keys answers absent
// keys at about its FP rate, not "may match" for all).
TEST(FilterPolicyTest, WritesAndReadsEveryFormat) {
  std::vector<std::string> storage;
  for (int i = 0; i < 2000; ++i) storage.push_back("key" + std::to_string(i));
  const std::vector<std::string_view> keys(storage.begin(), storage.end());
  ForEachEncoding([&](auto encoding) {
    using E = decltype(encoding);
    FilterOptions options;
    options.encoding = E::kId;
    const auto policy = MakePolicy(options);
    ASSERT_NE(policy, nullptr);
    std::string filter;
    policy->CreateFilter(keys, &filter);
    std::string direct;
    typename E::Builder builder(options.bits_per_key);
    for (std::string_view key : keys) builder.AddKey(key);
    builder.Finish(&direct);
    EXPECT_EQ(filter, direct) << E::kInfo.name;
    for (std::string_view key : keys) ASSERT_TRUE(policy->KeyMayMatch(key, filter)) << key;
    int positives = 0;
    for (int i = 0; i < 10000; ++i) {
      positives += policy->KeyMayMatch("absent" + std::to_string(i), filter);
    }
    // About 1% at 10 bits/key; 5% is far outside chance.
    EXPECT_LT(positives, 500) << E::kInfo.name;
  });
}

TEST(FilterPolicyTest, FpRateSizesTheFilter) {
  FilterOptions options;
  options.fp_rate = 0.01;
  const auto policy = MakePolicy(options);
  ASSERT_NE(policy, nullptr);
  std::vector<std::string> storage;
  for (int i = 0; i < 1000; ++i) storage.push_back("k" + std::to_string(i));
  const std::vector<std::string_view> keys(storage.begin(), storage.end());
  std::string filter;
  policy->CreateFilter(keys, &filter);
  // A LevelDB-format filter is a standard Bloom filter with k a little
  // under the optimum and a 32-bit hash: it needs at least the 9.585
  // bits/key a standard one needs for 1%, and a fraction of a bit more.
  const double bits_per_key = 8.0 * static_cast<double>(filter.size() - 1) / 1000;
  EXPECT_GE(bits_per_key, BitsPerKeyForFpRate(0.01));
  EXPECT_LE(bits_per_key, BitsPerKeyForFpRate(0.01) + 0.25);
  EXPECT_EQ(filter.back(), 6);  // floor(bits_per_key * 0.69).
}

TEST(FilterPolicyTest, BadOptionsNameTheValue) {
  FilterOptions bits;
  bits.bits_per_key = -3;
  auto policy = NewFilterPolicy(bits);
  ASSERT_FALSE(policy.ok());
  EXPECT_EQ(policy.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(policy.status().message().find("bits_per_key=-3"), std::string_view::npos)
      << policy.status();

  FilterOptions fp;
  fp.fp_rate = 2;
  policy = NewFilterPolicy(fp);
  ASSERT_FALSE(policy.ok());
  EXPECT_NE(policy.status().message().find("fp_rate=2"), std::string_view::npos)
      << policy.status();
}

// ---- OneShotQuery: the readers' answers, without a reader ----

// What OneShotQuery must answer: the reader of the encoding that recognises
// the bytes (VisitEncodingOf), at `simd` where the reader takes a level.
bool ReaderAnswer(std::string_view key, std::string_view filter, SimdLevel simd) {
  return VisitEncodingOf(filter, [&](auto encoding) {
    using Reader = typename decltype(encoding)::Reader;
    if constexpr (std::is_constructible_v<Reader, std::string_view, SimdLevel>) {
      return Reader(filter, simd).MayMatch(key);
    } else {
      return Reader(filter).MayMatch(key);
    }
  });
}

FilterState ReaderState(std::string_view filter) {
  return VisitEncodingOf(filter, [&](auto encoding) {
    return typename decltype(encoding)::Reader(filter).state();
  });
}

// Filters E's builder writes, of 0 keys to 3000 at several bits/key (and
// for compact the Bloom fallback, every seed failing), each with its keys.
struct BuiltFilter {
  std::string bytes;
  std::vector<std::string> keys;
};

template <typename E>
std::vector<BuiltFilter> BuildFilters(std::mt19937_64& rng) {
  std::vector<BuiltFilter> filters;
  auto add = [&](auto& builder, size_t n) {
    BuiltFilter f;
    f.keys = testing::RandomBytesKeys(n, 30, rng);
    for (const std::string& key : f.keys) builder.AddKey(key);
    builder.Finish(&f.bytes);
    filters.push_back(std::move(f));
  };
  for (double bits_per_key : {3.0, 10.0, 23.5}) {
    for (size_t n : {0, 1, 2, 5, 20, 33, 63, 64, 65, 100, 400, 3000}) {
      typename E::Builder builder(bits_per_key);
      add(builder, n);
    }
  }
  if constexpr (std::is_same_v<E, CompactEncoding>) {
    CompactBuildOptions fallback;
    fallback.max_seeds = 0;
    CompactFilterBuilder builder(10, fallback);
    add(builder, 300);
  }
  return filters;
}

// The filter cut short at either end, each of its last 24 bytes (every
// trailer field) set to values that mean something to some encoding (k
// limits, tags, body and hash kinds, field limits), every final byte, and
// a byte more.
std::vector<std::string> DamagedCopies(const std::string& f) {
  std::vector<std::string> out;
  const size_t tail = std::min<size_t>(f.size(), 24);
  for (size_t cut = 1; cut <= tail; ++cut) out.push_back(f.substr(0, f.size() - cut));
  for (size_t cut : {1, 2, 3, 8, 63, 64}) {
    if (cut < f.size()) out.push_back(f.substr(cut));
  }
  for (size_t back = 1; back <= tail; ++back) {
    for (int v : {0, 1, 2, 3, 4, 5, 6, 7, 18, 19, 30, 31, 32, 33, 64, 67, 70, 0x7f, 0x80, 0xff}) {
      std::string g = f;
      g[f.size() - back] = static_cast<char>(v);
      if (g != f) out.push_back(std::move(g));
    }
  }
  if (!f.empty()) {
    for (int v = 0; v < 256; ++v) {
      std::string g = f;
      g.back() = static_cast<char>(v);
      if (g != f) out.push_back(std::move(g));
    }
  }
  out.push_back(f + '\0');
  out.push_back(f + f.back());
  return out;
}

// Checks OneShotQuery at each level against the reader for every key, the
// filter in a buffer of exactly its size (AddressSanitizer sees overreads).
// Returns the answers given.
std::vector<bool> ExpectReaderAnswers(std::string_view filter,
                                      const std::vector<std::string>& keys,
                                      const std::vector<SimdLevel>& levels) {
  const testing::ExactBytes exact(filter);
  std::vector<bool> answers;
  for (SimdLevel level : levels) {
    const OneShotQuery query(level);
    for (const std::string& key : keys) {
      const bool expected = ReaderAnswer(key, exact.view(), level);
      EXPECT_EQ(query.KeyMayMatch(key, exact.view()), expected)
          << SimdLevelName(level) << ", filter " << testing::Hex(filter) << ", key "
          << testing::Hex(key);
      if (level == levels.front()) answers.push_back(expected);
    }
  }
  return answers;
}

class OneShotQueryTest : public ::testing::TestWithParam<EncodingId> {};

// Filters of the encoding as built (at every SIMD level, with no false
// negative), then damaged in every way DamagedCopies has (at the best level):
// OneShotQuery answers as the readers do. Every reader state comes up.
TEST_P(OneShotQueryTest, AnswersAsTheReader) {
  VisitEncoding(GetParam(), [&](auto encoding) {
    using E = decltype(encoding);
    std::mt19937_64 rng(21 + static_cast<int>(GetParam()));
    const std::vector<std::string> absent = testing::RandomBytesKeys(16, 31, rng);
    std::array<size_t, 3> states{};  // By FilterState.
    size_t positives = 0, negatives = 0;
    auto check = [&](std::string_view bytes, const std::vector<std::string>& keys,
                     const std::vector<SimdLevel>& levels) {
      ++states[static_cast<size_t>(ReaderState(bytes))];
      for (bool answer : ExpectReaderAnswers(bytes, keys, levels)) {
        ++(answer ? positives : negatives);
      }
    };
    for (const BuiltFilter& f : BuildFilters<E>(rng)) {
      SCOPED_TRACE(::testing::Message() << E::kInfo.name << " filter of " << f.keys.size()
                                        << " keys, " << f.bytes.size() << " bytes");
      ASSERT_TRUE(E::kInfo.recognises(f.bytes));
      std::vector<std::string> keys(f.keys.begin(),
                                    f.keys.begin() + std::min<size_t>(f.keys.size(), 16));
      const OneShotQuery query;
      for (const std::string& key : keys) ASSERT_TRUE(query.KeyMayMatch(key, f.bytes)) << key;
      keys.insert(keys.end(), absent.begin(), absent.end());
      check(f.bytes, keys, SupportedSimdLevels());
      for (const std::string& damaged : DamagedCopies(f.bytes)) {
        check(damaged, keys, {BestSimdLevel()});
        if (::testing::Test::HasFailure()) return;
      }
    }
    for (FilterState s : {FilterState::kProbe, FilterState::kMatchNothing,
                          FilterState::kMatchEverything}) {
      EXPECT_GT(states[static_cast<size_t>(s)], 0u) << "no filter read as state " << int(s);
    }
    EXPECT_GT(positives, 0u);
    EXPECT_GT(negatives, 0u);
  });
}

// The policy's KeyMayMatch is OneShotQuery's, for filters of every encoding
// whatever the encoding it writes.
TEST_P(OneShotQueryTest, PolicyReadsEveryEncodingAsTheReaders) {
  FilterOptions options;
  options.encoding = GetParam();
  const auto policy = MakePolicy(options);
  ASSERT_NE(policy, nullptr);
  std::mt19937_64 rng(31);
  const std::vector<std::string> absent = testing::RandomBytesKeys(200, 31, rng);
  ForEachEncoding([&](auto encoding) {
    using E = decltype(encoding);
    for (const BuiltFilter& f : BuildFilters<E>(rng)) {
      for (const std::string& key : f.keys) ASSERT_TRUE(policy->KeyMayMatch(key, f.bytes));
      for (const std::string& key : absent) {
        ASSERT_EQ(policy->KeyMayMatch(key, f.bytes), ReaderAnswer(key, f.bytes, BestSimdLevel()))
            << E::kInfo.name << " filter of " << f.keys.size() << " keys";
      }
    }
  });
}

INSTANTIATE_TEST_SUITE_P(Encodings, OneShotQueryTest, ::testing::ValuesIn(AllEncodingIds()),
                         [](const ::testing::TestParamInfo<EncodingId>& info) {
                           return std::string(EncodingName(info.param));
                         });

// Bytes no builder wrote: random ones, ending in every byte some encoding
// gives meaning; well-formed trailers over random arrays of every length
// (cache-local: every line shape and the lengths between; compact: fuse
// shapes of every field's range); and the shortest filters.
TEST(OneShotQueryAnyBytesTest, AnswersAsTheReaders) {
  std::mt19937_64 rng(41);
  const std::vector<std::string> keys = testing::RandomBytesKeys(24, 31, rng);
  auto random_bytes = [&rng](size_t n) {
    std::string s(n, '\0');
    for (char& c : s) c = static_cast<char>(rng());
    return s;
  };
  std::array<size_t, 3> states{};
  auto check = [&](const std::string& bytes) {
    ++states[static_cast<size_t>(ReaderState(bytes))];
    ExpectReaderAnswers(bytes, keys, SupportedSimdLevels());
  };
  for (int len = 0; len < 3; ++len) {
    for (int v = 0; v < 256; ++v) check(std::string(len, static_cast<char>(v)));
  }
  for (int i = 0; i < 2000; ++i) {
    std::string s = random_bytes(rng() % 300);
    const char finals[] = {1, 6, 30, 31, 'C', 'F', static_cast<char>(rng())};
    if (!s.empty()) s.back() = finals[rng() % sizeof(finals)];
    check(s);
  }
  for (size_t array_bytes = 0; array_bytes <= 8 * 64 + 70; ++array_bytes) {
    for (int k : {0, 1, 6, 32, 33}) {
      const std::string trailer = {char{1}, char{6}, static_cast<char>(k), 'C'};
      check(random_bytes(array_bytes) + trailer);
      check(random_bytes(array_bytes) + trailer + std::string{char{2}, 'F'});
    }
  }
  for (int lg : {0, 1, 5, 18, 19}) {
    for (uint32_t segments : {1u, 2u, 7u}) {
      for (int r : {1, 7, 8, 32, 33}) {
        FuseShape s;
        s.segment_count = segments;
        s.log_segment_length = lg;
        s.fingerprint_bits = r;
        const uint64_t starts = s.window_starts();
        for (uint64_t narrow : {uint64_t{0}, uint64_t{1}, starts, starts + 1}) {
          s.narrow_cells = static_cast<uint32_t>(narrow);
          std::string t(18, '\0');
          for (int b = 0; b < 4; ++b) {
            t[b] = static_cast<char>(segments >> (8 * b));
            t[4 + b] = static_cast<char>(narrow >> (8 * b));
            t[8 + b] = static_cast<char>(rng() >> (8 * b));
          }
          t[12] = static_cast<char>(lg);
          t[13] = static_cast<char>(r);
          t[14] = 4;
          t[15] = 2;
          t[16] = 1;
          t[17] = 'F';
          if (s.array_bytes() > (1 << 20)) continue;
          const std::string array = random_bytes(static_cast<size_t>(s.array_bytes() + 1));
          for (uint64_t length : {s.array_bytes(), s.array_bytes() + 1, s.array_bytes() - 1}) {
            check(array.substr(0, static_cast<size_t>(length)) + t);
          }
        }
      }
    }
  }
  for (FilterState s :
       {FilterState::kProbe, FilterState::kMatchNothing, FilterState::kMatchEverything}) {
    EXPECT_GT(states[static_cast<size_t>(s)], 0u) << "no bytes read as state " << int(s);
  }
}

// No query allocates: not the parsing, not the probes, not the fallback.
TEST(OneShotQueryAllocationTest, QueriesAllocateNothing) {
  std::mt19937_64 rng(51);
  const std::vector<std::string> keys = testing::RandomBytesKeys(20, 31, rng);
  const OneShotQuery query;
  size_t queries = 0, positives = 0, allocations = 0;
  auto ask = [&](const std::string& filter) {
    for (const std::string& key : keys) {
      const size_t before = g_allocations.load();
      positives += query.KeyMayMatch(key, filter);
      allocations += g_allocations.load() - before;
      ++queries;
    }
  };
  for (const char* bytes : {"", "\x06", "\x80\x80\x80", "CCCCC", "FFF"}) ask(bytes);
  ForEachEncoding([&](auto encoding) {
    for (const BuiltFilter& f : BuildFilters<decltype(encoding)>(rng)) {
      ask(f.bytes);
      for (const std::string& damaged : DamagedCopies(f.bytes)) ask(damaged);
    }
  });
  EXPECT_EQ(allocations, 0u) << "in " << queries << " queries";
  EXPECT_GT(positives, 0u);
}

}  // namespace
}  // namespace sstfilter

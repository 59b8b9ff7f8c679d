// The one list of encodings (filter/encodings.h): names, dispatch by format
// and by bytes, and what DescribeFilter reports, with the FP models checked
// against formulas computed here independently (closed form for LevelDB's,
// a direct Poisson sum for the cache-local one).
#include "filter/encodings.h"

#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "filter/bloom_math.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace {

std::vector<std::string> Keys(size_t n) {
  std::vector<std::string> keys;
  for (size_t i = 0; i < n; ++i) keys.push_back("key" + std::to_string(i));
  return keys;
}

template <typename E>
std::string Build(size_t n, double bits_per_key) {
  typename E::Builder builder(bits_per_key);
  for (const std::string& key : Keys(n)) builder.AddKey(key);
  std::string filter;
  builder.Finish(&filter);
  return filter;
}

TEST(EncodingsTest, NamesRoundTripAndAreListed) {
  ForEachEncoding([](auto encoding) {
    using E = decltype(encoding);
    EXPECT_EQ(EncodingName(IdOf<E>()), E::kInfo.name);
    EXPECT_EQ(ParseEncodingName(E::kInfo.name), IdOf<E>());
    EXPECT_NE(EncodingNameList().find("'" + std::string(E::kInfo.name) + "'"), std::string::npos);
  });
  EXPECT_EQ(EncodingNameList(), "'leveldb', 'cache_local' or 'compact'");
  EXPECT_EQ(ParseEncodingName("LevelDB"), std::nullopt);
  EXPECT_EQ(ParseEncodingName(""), std::nullopt);
  EXPECT_EQ(kDefaultEncoding, EncodingId::kLevelDb);
}

// Each encoding's bytes are recognised as its own, and by no other.
TEST(EncodingsTest, BytesAreRecognisedByTheirEncodingOnly) {
  ForEachEncoding([](auto built_by) {
    using Built = decltype(built_by);
    for (size_t n : {0, 1, 2, 100, 5000}) {
      for (double bits_per_key : {0.5, 1.0, 4.0, 10.0, 23.0, 44.0, 100.0}) {
        const std::string filter = Build<Built>(n, bits_per_key);
        const std::string_view visited = VisitEncodingOf(
            filter, [](auto e) -> std::string_view {
              if constexpr (std::is_same_v<decltype(e), UnrecognisedEncoding>) {
                return "unrecognised";
              } else {
                return decltype(e)::kInfo.name;
              }
            });
        EXPECT_EQ(visited, Built::kInfo.name) << n << " keys";
        ForEachEncoding([&](auto other) {
          using Other = decltype(other);
          EXPECT_EQ(Other::kInfo.recognises(filter), (std::is_same_v<Other, Built>))
              << Other::kInfo.name << " on " << Built::kInfo.name << " bytes, " << n
              << " keys, " << bits_per_key << " bits/key";
        });
      }
    }
  });
}

TEST(EncodingsTest, VisitEncodingPicksTheFormatsBuilder) {
  ForEachEncoding([](auto encoding) {
    using E = decltype(encoding);
    const std::string filter = VisitEncoding(IdOf<E>(), [](auto e) {
      return Build<decltype(e)>(50, 10);
    });
    EXPECT_EQ(filter, Build<E>(50, 10)) << E::kInfo.name;
  });
}

// LevelDB's FP model written out: (1 - e^(-k n / m))^k for the filter's own
// m and k, plus the chance that a 32-bit hash collides with one of n.
double LevelDbReference(double n, double bits, int k) {
  const double bloom = std::pow(1 - std::exp(-k * n / bits), k);
  const double collision = 1 - std::pow(1 - std::ldexp(1.0, -32), n);
  return bloom + (1 - bloom) * collision;
}

TEST(DescribeFilterTest, LevelDbFilter) {
  for (size_t n : {10, 1000, 20000}) {
    for (int bits_per_key : {5, 10, 20}) {
      const std::string filter = Build<LevelDbEncoding>(n, bits_per_key);
      const FilterDescription d = DescribeFilter(filter);
      ASSERT_EQ(d.state, FilterState::kProbe);
      const int k = static_cast<unsigned char>(filter.back());
      EXPECT_EQ(d.num_probes, k);
      EXPECT_EQ(d.name, "leveldb k=" + std::to_string(k));
      const double bits = 8.0 * static_cast<double>(filter.size() - 1);
      EXPECT_EQ(d.num_bits, bits);
      const double want = LevelDbReference(static_cast<double>(n), bits, k);
      EXPECT_NEAR(d.ExpectedFpRate(static_cast<double>(n)), want, 1e-9 * want)
          << n << " keys, " << bits_per_key << " bits/key";
    }
  }
}

// The blocked filter's model summed directly: P(line holds L keys) is
// Poisson(L; n / lines), each term from exp/lgamma (the library walks a
// recurrence instead), and a line with L keys has a bit clear with
// probability (1 - 1/512)^(k L).
double CacheLocalReference(double n, double lines, int k) {
  const double lambda = n / lines;
  double fp = 0;
  for (int load = 0; load < 10 * lambda + 200; ++load) {
    const double pmf = std::exp(load * std::log(lambda) - lambda - std::lgamma(load + 1.0));
    fp += pmf * std::pow(1 - std::pow(1 - 1.0 / 512, k * load), k);
  }
  return fp;
}

TEST(DescribeFilterTest, CacheLocalFilter) {
  // 10 keys at 10 bits/key: one narrow line of 13 bytes holding all 10 keys.
  {
    const std::string filter = Build<CacheLocalEncoding>(10, 10.0);
    ASSERT_EQ(filter.size(), 13u + 4);
    const FilterDescription d = DescribeFilter(filter);
    ASSERT_EQ(d.state, FilterState::kProbe) << d.name;
    const int k = static_cast<unsigned char>(filter[filter.size() - 2]);
    EXPECT_EQ(d.num_bits, 104);
    const double want = std::pow(1 - std::pow(1 - 1.0 / 104, k * 10), k);
    EXPECT_NEAR(d.ExpectedFpRate(10), want, 1e-9 * want);
  }
  for (size_t n : {1000, 20000}) {  // More than 8 lines: 64-byte lines.
    const std::string filter = Build<CacheLocalEncoding>(n, 10.0);
    const FilterDescription d = DescribeFilter(filter);
    ASSERT_EQ(d.state, FilterState::kProbe) << d.name;
    const int k = static_cast<unsigned char>(filter[filter.size() - 2]);
    const double lines = static_cast<double>((filter.size() - 4) / 64);
    EXPECT_EQ(d.num_probes, k);
    EXPECT_EQ(d.num_bits, lines * 512);
    EXPECT_EQ(d.name, "cache_local k=" + std::to_string(k));
    const double want = CacheLocalReference(static_cast<double>(n), lines, k);
    EXPECT_NEAR(d.ExpectedFpRate(static_cast<double>(n)), want, 1e-9 * want) << n;
  }
  const FilterDescription empty = DescribeFilter(Build<CacheLocalEncoding>(0, 10.0));
  EXPECT_EQ(empty.state, FilterState::kMatchNothing);
  EXPECT_EQ(empty.ExpectedFpRate(5), 0.0);
  // A cache-local tag on a bad trailer: the reader fails open, and says so.
  std::string damaged(68, '\0');
  damaged.back() = static_cast<char>(kCacheLocalTag);
  const FilterDescription d = DescribeFilter(damaged);
  EXPECT_EQ(d.state, FilterState::kMatchEverything);
  EXPECT_NE(d.name.find("damaged"), std::string::npos) << d.name;
  EXPECT_EQ(d.ExpectedFpRate(100), 1.0);
}

TEST(DescribeFilterTest, EmptyAndUnknown) {
  EXPECT_EQ(DescribeFilter("").state, FilterState::kMatchNothing);
  EXPECT_EQ(DescribeFilter("x").state, FilterState::kMatchNothing);
  EXPECT_EQ(DescribeFilter("").ExpectedFpRate(5), 0.0);
  const FilterDescription zero = DescribeFilter(std::string(9, '\0'));
  EXPECT_EQ(zero.state, FilterState::kMatchEverything);
  EXPECT_NE(zero.name.find("k=0"), std::string::npos);
  const FilterDescription unknown = DescribeFilter(std::string(8, '\0') + "\x7f");
  EXPECT_EQ(unknown.state, FilterState::kMatchEverything);
  EXPECT_NE(unknown.name.find("0x7f"), std::string::npos) << unknown.name;
  EXPECT_EQ(unknown.ExpectedFpRate(5), 1.0);
  // An unrecognised filter is read as "may match" for every key.
  const std::string reserved = std::string(8, '\0') + "\x7f";
  const bool answer = VisitEncodingOf(reserved, [&](auto e) {
    return typename decltype(e)::Reader(reserved).MayMatch("anything");
  });
  EXPECT_TRUE(answer);
}

}  // namespace
}  // namespace sstfilter

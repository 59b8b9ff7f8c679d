// The one list of encodings (filter/encodings.h): ids and names, dispatch
// by format and by bytes, and what DescribeFilter reports. Every check that
// holds for all encodings loops over the list (ForEachEncoding), so a new
// encoding is covered without edits; then each encoding's own description,
// its FP model checked against formulas computed here independently (closed
// form for LevelDB's, a direct Poisson sum for the cache-local one, the
// trailer's fields for compact's fuse filter).
#include "filter/encodings.h"

#include <cctype>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_format.h"
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
std::string BuildFrom(const std::vector<std::string>& keys, double bits_per_key) {
  typename E::Builder builder(bits_per_key);
  for (const std::string& key : keys) builder.AddKey(key);
  std::string filter;
  builder.Finish(&filter);
  return filter;
}

template <typename E>
std::string Build(size_t n, double bits_per_key) {
  return BuildFrom<E>(Keys(n), bits_per_key);
}

// The list itself: AllEncodingIds() is the Encodings tuple's positions, in
// order; names and titles are unique, spelled so they fit in an option
// string (policy ids split on ':', option maps on ';' and '=', compare lists
// on ','; db_bench reads "*" as "every encoding").
TEST(EncodingsTest, IdsAndNamesComeFromTheList) {
  ASSERT_EQ(AllEncodingIds().size(), kNumEncodings);
  std::set<std::string_view> names, titles;
  size_t position = 0;
  ForEachEncoding([&](auto encoding) {
    using E = decltype(encoding);
    SCOPED_TRACE(E::kInfo.name);
    EXPECT_EQ(static_cast<size_t>(E::kId), position);
    EXPECT_EQ(AllEncodingIds()[position], E::kId);
    EXPECT_TRUE(IsKnownEncoding(E::kId));
    EXPECT_TRUE(names.insert(E::kInfo.name).second) << "name used twice";
    EXPECT_TRUE(titles.insert(E::kInfo.title).second) << "title used twice";
    EXPECT_FALSE(E::kInfo.name.empty());
    for (char c : E::kInfo.name) {
      EXPECT_TRUE((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')
          << "'" << c << "' in the name";
    }
    EXPECT_FALSE(E::kInfo.title.empty());
    ++position;
  });
  EXPECT_EQ(position, kNumEncodings);
  EXPECT_FALSE(IsKnownEncoding(static_cast<EncodingId>(kNumEncodings)));
}

TEST(EncodingsTest, NamesRoundTripAndAreListed) {
  // "'a', 'b' or 'c'": every name once, in EncodingId order.
  std::string want;
  for (size_t i = 0; i < kNumEncodings; ++i) {
    if (i > 0) want += i + 1 == kNumEncodings ? " or " : ", ";
    want += "'" + std::string(EncodingName(AllEncodingIds()[i])) + "'";
  }
  EXPECT_EQ(EncodingNameList(), want);
  ForEachEncoding([](auto encoding) {
    using E = decltype(encoding);
    EXPECT_EQ(EncodingName(E::kId), E::kInfo.name);
    EXPECT_EQ(ParseEncodingName(E::kInfo.name), E::kId);
    // Names are matched exactly: no prefix, no other case.
    EXPECT_EQ(ParseEncodingName(E::kInfo.name.substr(0, E::kInfo.name.size() - 1)),
              std::nullopt);
    EXPECT_EQ(ParseEncodingName(std::string(E::kInfo.name) + "x"), std::nullopt);
    std::string upper(E::kInfo.name);
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    EXPECT_EQ(ParseEncodingName(upper), std::nullopt);
  });
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

// Each encoding's filters end in its EncodingInfo::tag, above LevelDB's k
// (1..30) and used by no other; LevelDB's format (tag 0) ends in k.
TEST(EncodingsTest, TagsAreDistinctAndEndTheFilters) {
  std::set<unsigned char> tags;
  ForEachEncoding([&](auto encoding) {
    using E = decltype(encoding);
    const unsigned char tag = E::kInfo.tag;
    SCOPED_TRACE(E::kInfo.name);
    EXPECT_TRUE(tag == 0 || tag > 30) << int{tag};
    EXPECT_TRUE(tag == 0 || tags.insert(tag).second) << "tag " << int{tag} << " used twice";
    for (size_t n : {1, 100, 5000}) {
      for (double bits_per_key : {1.0, 10.0, 44.0}) {
        const auto last = static_cast<unsigned char>(Build<E>(n, bits_per_key).back());
        if (tag == 0) {
          EXPECT_TRUE(last >= 1 && last <= 30) << int{last};
        } else {
          EXPECT_EQ(last, tag) << n << " keys, " << bits_per_key << " bits/key";
        }
      }
    }
  });
  EXPECT_EQ(LevelDbEncoding::kInfo.tag, 0);
}

TEST(EncodingsTest, VisitEncodingPicksTheFormatsBuilder) {
  ForEachEncoding([](auto encoding) {
    using E = decltype(encoding);
    const std::string filter = VisitEncoding(E::kId, [](auto e) {
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

// Whether text holds number as a whole number ("k=6" and "fuse4" hold 6
// and 4; "k=16" does not hold 6).
bool HoldsNumber(std::string_view text, int number) {
  const std::string digits = std::to_string(number);
  const auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  for (size_t at = text.find(digits); at != std::string_view::npos;
       at = text.find(digits, at + 1)) {
    const size_t end = at + digits.size();
    if ((at == 0 || !is_digit(text[at - 1])) && (end == text.size() || !is_digit(text[end]))) {
      return true;
    }
  }
  return false;
}

// What each encoding of the list says of a filter it built, checked the same
// way for all: the description names the encoding and its probe count (k, or
// the fuse filter's arity), counts as probed bits the filter's bytes less a
// trailer of at most 32 bytes, carries the encoding's FP model for these keys
// and bits/key, and that model predicts the FP rate the encoding's reader
// shows on absent keys. Filters of one encoding at one bits/key describe
// equally whatever their keys and key count (so the inspector can group
// partitions by it); two encodings never share a description.
TEST(DescribeFilterTest, EveryEncodingDescribesItsFilters) {
  std::map<std::string, std::string_view> encoding_of;  // Description -> encoding.
  constexpr size_t kProbes = 20000;
  ForEachEncoding([&](auto encoding) {
    using E = decltype(encoding);
    for (double bits_per_key : {6.0, 10.0, 16.0}) {
      const int k = typename E::Builder(bits_per_key).num_probes();
      std::string first_name;  // Of the first key count.
      for (size_t n : {1000, 20000}) {
        SCOPED_TRACE(absl::StrFormat("%s, %d keys, %g bits/key", E::kInfo.name, n, bits_per_key));
        const std::string filter = Build<E>(n, bits_per_key);
        const FilterDescription d = DescribeFilter(filter);
        ASSERT_EQ(d.state, FilterState::kProbe) << d.name;
        EXPECT_EQ(d.name.rfind(std::string(E::kInfo.name) + " ", 0), 0u) << d.name;
        EXPECT_EQ(d.num_probes, k);
        EXPECT_TRUE(HoldsNumber(d.name, k)) << d.name << " does not say " << k;
        const double bytes = static_cast<double>(filter.size());
        EXPECT_LE(d.num_bits, 8 * bytes);
        EXPECT_GE(d.num_bits, 8 * (bytes - 32));
        const double model = d.ExpectedFpRate(static_cast<double>(n));
        EXPECT_NEAR(model, E::kInfo.expected_fp_rate(n, bits_per_key), 1e-9 * model);
        const typename E::Reader reader(filter);
        size_t hits = 0;
        for (size_t i = 0; i < kProbes; ++i) hits += reader.MayMatch("absent" + std::to_string(i));
        const double seen = static_cast<double>(hits) / kProbes;
        EXPECT_NEAR(seen, model, 5 * std::sqrt(model / kProbes) + 0.1 * model);
        std::vector<std::string> other_keys;
        for (size_t i = 0; i < n; ++i) other_keys.push_back("other" + std::to_string(i));
        EXPECT_EQ(DescribeFilter(BuildFrom<E>(other_keys, bits_per_key)).name, d.name);
        if (first_name.empty()) first_name = d.name;
        EXPECT_EQ(d.name, first_name) << "another key count, another description";
        const auto [it, first] = encoding_of.emplace(d.name, E::kInfo.name);
        EXPECT_EQ(it->second, E::kInfo.name) << "'" << d.name << "' describes both";
      }
    }
  });
}

uint32_t Fixed32At(std::string_view bytes, size_t pos) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(bytes[pos + i]);
  return v;
}

// A compact filter's description read against its trailer (the format in
// compact/filter.h): a fuse body is "compact fuse<arity> r=<r>", its bits
// and FP rate those of its cells (a window start narrow, r - 1 bits, with
// probability narrow_cells / (S 2^lg)); a Bloom body is the cache-local
// filter it holds, so labelled; a trailer the reader refuses reads as
// may-match.
TEST(DescribeFilterTest, CompactFilter) {
  for (size_t n : {1000, 20000}) {
    const std::string filter = Build<CompactEncoding>(n, 10.0);
    const size_t t = filter.size() - kCompactFuseTrailerBytes;
    ASSERT_EQ(filter[filter.size() - 2], static_cast<char>(kCompactBodyFuse));
    const uint64_t segments = Fixed32At(filter, t), narrow = Fixed32At(filter, t + 4);
    const int lg = filter[t + 12], r = filter[t + 13], arity = filter[t + 14];
    const FilterDescription d = DescribeFilter(filter);
    ASSERT_EQ(d.state, FilterState::kProbe) << d.name;
    EXPECT_EQ(d.name, absl::StrFormat("compact fuse%d r=%d", arity, r));
    EXPECT_EQ(d.num_probes, arity);
    EXPECT_EQ(d.num_bits, static_cast<double>(((segments + arity - 1) << lg) * r - narrow));
    const double narrow_share = static_cast<double>(narrow) / static_cast<double>(segments << lg);
    const double want = narrow_share * std::ldexp(1, 1 - r) + (1 - narrow_share) * std::ldexp(1, -r);
    EXPECT_NEAR(d.ExpectedFpRate(static_cast<double>(n)), want, 1e-12) << n;
  }
  // Few keys: a Bloom body, planned (small) or, with no seed allowed, fallen back to.
  const auto bloom_body = [](const std::string& filter, const std::string& label) {
    const FilterDescription d = DescribeFilter(filter);
    const FilterDescription inner =
        DescribeFilter(filter.substr(0, filter.size() - kCompactBloomTrailerBytes));
    ASSERT_EQ(inner.state, FilterState::kProbe) << inner.name;
    EXPECT_EQ(d.state, FilterState::kProbe);
    EXPECT_EQ(d.name, "compact (" + label + ") " + inner.name);
    EXPECT_EQ(d.num_probes, inner.num_probes);
    EXPECT_EQ(d.num_bits, inner.num_bits);
    EXPECT_EQ(d.ExpectedFpRate(20), inner.ExpectedFpRate(20));
  };
  bloom_body(Build<CompactEncoding>(20, 10.0), "small");
  CompactBuildOptions no_seeds;
  no_seeds.max_seeds = 0;
  CompactFilterBuilder builder(10.0, no_seeds);
  for (const std::string& key : Keys(1000)) builder.AddKey(key);
  std::string fallback;
  builder.Finish(&fallback);
  bloom_body(fallback, "fallback");
  // The empty filter: a small body holding cache-local's empty filter.
  const FilterDescription empty = DescribeFilter(Build<CompactEncoding>(0, 10.0));
  EXPECT_EQ(empty.state, FilterState::kMatchNothing) << empty.name;
  EXPECT_EQ(empty.ExpectedFpRate(5), 0.0);
  // A hash kind no reader knows (1, an earlier cell mapping): may-match, and said so.
  std::string damaged = Build<CompactEncoding>(1000, 10.0);
  damaged[damaged.size() - 3] = 1;
  const FilterDescription d = DescribeFilter(damaged);
  EXPECT_EQ(d.state, FilterState::kMatchEverything);
  EXPECT_EQ(d.name.rfind("compact", 0), 0u) << d.name;
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

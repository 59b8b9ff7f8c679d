// Fuzz target: builder -> reader round trips with adversarial keys and
// options, in every encoding of the list (filter/encodings.h): the input
// picks one.
//
// Keys: duplicates (adjacent, as RocksDB hands them), empty, long, "key" +
// decimal, and up to 20,000 generated keys. bits_per_key: anywhere in its
// valid range (0, 100], fractions and subnormals included. For each build,
// whatever the encoding (CheckEncoding):
//   - no false negative: every key may match, single and batched, and the
//     filter is probed (with no keys, nothing matches);
//   - the bytes are recognised by their encoding and by no other, and
//     described as the reader reads them;
//   - FinishSize is the size written; FilterSize(n), the size planned for
//     n entries, holds them by MaxEntriesForSize;
//   - through RocksDB's interface (the policy's FilterBitsBuilder with
//     detect_filter_construct_corruption): MaybePostVerify accepts the
//     filter, EstimateEntriesAdded counts keys de-duplicated against the
//     previous key, the bytes are those the encoding's builder writes for
//     those entries, ApproximateNumEntries inverts the planned size, and the
//     policy's reader finds every key.
// Then each encoding's own account, written here independently
// (CheckIndependently: an encoding added to the list does not compile here
// until it has one):
//   - sizes by the format's formula for n entries (LevelDB: max(n * bpk,
//     64) bits rounded to bytes, + 1; cache-local: lines = ceil(n * bpk /
//     512), lines * 64 + 4 above 8 lines, else lines * ceil(n * bpk / (8 *
//     lines)) + 4; compact: a fuse filter's array from its trailer's
//     fields, + 18; banded: layers' blocks at their widths from the
//     trailer's fields, + 4 L + 9), n counted here (LevelDB keeps every key, the others
//     drop a key whose hash equals the previous one's);
//   - independent bytes: LevelDB's own CreateFilter at an integral
//     bits/key, the reference cache-local builder (cache_local_reference.h)
//     for cache-local filters and compact's and banded's Bloom bodies, a
//     reader of the banded format written here that finds every key, the
//     same bytes from every SIMD level, every level's reader finding every
//     key.
#include <leveldb/filter_policy.h>
#include <leveldb/slice.h>
#include <rocksdb/table.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "filter/banded/math.h"
#include "filter/encodings.h"
#include "filter/filter_options.h"
#include "filter/simd_level.h"
#include "fuzz/cache_local_reference.h"
#include "fuzz/fuzz_util.h"
#include "table/rocksdb/rocksdb_filter_policy.h"
#include "table/rocksdb/rocksdb_internal.h"

namespace sstfilter::fuzz {
namespace {

constexpr size_t kMaxKeys = 64;
constexpr size_t kManyKeys = 20000;

// The formats' size formulas, for n entries.
size_t LevelDbFormulaBytes(size_t n, double bpk) {
  size_t bits = static_cast<size_t>(static_cast<double>(n) * bpk);
  if (bits < 64) bits = 64;
  return (bits + 7) / 8 + 1;
}
size_t CacheLocalFormulaBytes(size_t n, double bpk) {
  const RefShape shape = RefFilterShape(n, bpk);
  return shape.lines * shape.line_bytes + 4;
}

// n = MaxEntriesForSize(bytes) is the largest count whose filter fits.
template <typename Formula>
void CheckInverse(size_t bytes, size_t max_entries, size_t n, Formula formula,
                  const std::string& where) {
  SSTFILTER_FUZZ_CHECK(max_entries >= n, where, " bytes ", bytes);
  SSTFILTER_FUZZ_CHECK(formula(max_entries) <= bytes, where, " max ", max_entries);
  SSTFILTER_FUZZ_CHECK(formula(max_entries + 1) > bytes, where, " max ", max_entries);
}

void CheckLevelDb(const std::vector<std::string>& keys, double bpk) {
  const std::string where = absl::StrCat("leveldb bpk ", bpk, " keys ", keys.size());
  LevelDbBloomBuilder builder(bpk);
  for (const std::string& k : keys) builder.AddKey(k);
  SSTFILTER_FUZZ_CHECK(builder.NumEntries() == keys.size(), where);
  std::string filter;
  builder.Finish(&filter);
  const auto formula = [bpk](size_t n) { return LevelDbFormulaBytes(n, bpk); };
  SSTFILTER_FUZZ_CHECK(filter.size() == formula(keys.size()), where, " size ", filter.size());
  CheckInverse(filter.size(), builder.MaxEntriesForSize(filter.size()), keys.size(), formula,
               where);
  long k = static_cast<long>(bpk * 0.69);
  k = k < 1 ? 1 : k > 30 ? 30 : k;
  SSTFILTER_FUZZ_CHECK(static_cast<unsigned char>(filter.back()) == k, where);

  static const leveldb::FilterPolicy* leveldb_reader = leveldb::NewBloomFilterPolicy(10);
  const ExactBytes exact(filter);
  const LevelDbBloomReader reader(exact.view());
  SSTFILTER_FUZZ_CHECK(reader.state() == FilterState::kProbe, where);
  std::vector<std::string_view> views(keys.begin(), keys.end());
  std::unique_ptr<bool[]> batch(new bool[keys.size()]);
  reader.MayMatchBatch(views, batch.get());
  for (size_t i = 0; i < keys.size(); ++i) {
    SSTFILTER_FUZZ_CHECK(reader.MayMatch(keys[i]) && batch[i], where, " key ", Printable(keys[i]));
    SSTFILTER_FUZZ_CHECK(leveldb_reader->KeyMayMatch(keys[i], {filter.data(), filter.size()}),
                         "libleveldb: ", where, " key ", Printable(keys[i]));
  }
  if (bpk == std::floor(bpk)) {  // LevelDB's own policy takes an int.
    const std::unique_ptr<const leveldb::FilterPolicy> own(
        leveldb::NewBloomFilterPolicy(static_cast<int>(bpk)));
    std::vector<leveldb::Slice> slices(keys.begin(), keys.end());
    std::string own_filter;
    own->CreateFilter(slices.data(), static_cast<int>(slices.size()), &own_filter);
    SSTFILTER_FUZZ_CHECK(own_filter == filter, "bytes differ from LevelDB's: ", where);
  }
}

// The reference XXH3 hashes of keys, adjacent equal hashes counted once (as
// the cache-local and compact builders add them).
std::vector<uint64_t> RefHashesOnce(const std::vector<std::string>& keys) {
  std::vector<uint64_t> hashes;
  for (const std::string& k : keys) {
    const uint64_t h = RefCacheLocalHash(k);
    if (hashes.empty() || hashes.back() != h) hashes.push_back(h);
  }
  return hashes;
}

void CheckCacheLocal(const std::vector<std::string>& keys, double bpk) {
  const std::string where = absl::StrCat("cache_local bpk ", bpk, " keys ", keys.size());
  std::vector<uint64_t> hashes = RefHashesOnce(keys);
  const size_t n = hashes.size();
  const auto formula = [bpk](size_t m) { return CacheLocalFormulaBytes(m, bpk); };
  std::string first;
  for (SimdLevel level : SupportedSimdLevels()) {
    CacheLocalBloomBuilder builder(bpk, level);
    for (const std::string& k : keys) builder.AddKey(k);
    SSTFILTER_FUZZ_CHECK(builder.NumEntries() == n, where);
    std::string filter;
    builder.Finish(&filter);
    SSTFILTER_FUZZ_CHECK(filter.size() == formula(n), where, " size ", filter.size());
    CheckInverse(filter.size(), builder.MaxEntriesForSize(filter.size()), n, formula, where);
    const int k = builder.num_probes();
    SSTFILTER_FUZZ_CHECK(k >= 1 && k <= 32, where, " k ", k);
    SSTFILTER_FUZZ_CHECK(filter == RefBuild(hashes, RefFilterShape(n, bpk), k),
                         "bytes differ from the reference's: ", where);
    if (level == SimdLevel::kScalar) first = filter;
    SSTFILTER_FUZZ_CHECK(filter == first, "bytes differ between SIMD levels: ", where);
    const ExactBytes exact(filter);
    const CacheLocalBloomReader reader(exact.view(), level);
    SSTFILTER_FUZZ_CHECK(
        reader.state() == (n > 0 ? FilterState::kProbe : FilterState::kMatchNothing), where);
    std::vector<std::string_view> views(keys.begin(), keys.end());
    std::unique_ptr<bool[]> batch(new bool[keys.size()]);
    reader.MayMatchBatch(views, batch.get());
    for (size_t i = 0; i < keys.size(); ++i) {
      SSTFILTER_FUZZ_CHECK(reader.MayMatch(keys[i]) && batch[i], where, " key ",
                           Printable(keys[i]));
    }
  }
}

uint32_t Fixed32At(std::string_view bytes, size_t pos) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(bytes[pos + i]);
  return v;
}

// Every SIMD level's Reader of filter finds every key, single and batched.
template <typename Reader>
void CheckEveryLevelFindsEveryKey(const std::string& filter, const std::vector<std::string>& keys,
                                  const std::string& where) {
  const ExactBytes exact(filter);
  for (SimdLevel level : SupportedSimdLevels()) {
    const Reader reader(exact.view(), level);
    std::vector<std::string_view> views(keys.begin(), keys.end());
    std::unique_ptr<bool[]> batch(new bool[keys.size()]);
    reader.MayMatchBatch(views, batch.get());
    for (size_t i = 0; i < keys.size(); ++i) {
      SSTFILTER_FUZZ_CHECK(reader.MayMatch(keys[i]) && batch[i], where, " key ",
                           Printable(keys[i]), " level ", std::string(SimdLevelName(level)));
    }
  }
}

// The compact encoding from its format (compact/filter.h): final byte 'F',
// the body kind before it. A fuse body's array is ceil(((S + 3) 2^lg r -
// narrow) / 8) bytes by its trailer's fields, arity 4, XXH3 hashes, one of
// the first 10 seeds; a Bloom body is the reference cache-local filter of
// the keys' hashes, adjacent duplicates dropped (or every duplicate, once a
// failed fuse construction removed them).
void CheckCompact(const std::vector<std::string>& keys, double bpk) {
  const std::string where = absl::StrCat("compact bpk ", bpk, " keys ", keys.size());
  std::vector<uint64_t> hashes = RefHashesOnce(keys);
  std::vector<uint64_t> distinct;  // Each hash once, first occurrences in order.
  {
    std::vector<uint64_t> sorted = hashes;
    std::sort(sorted.begin(), sorted.end());
    std::vector<bool> kept(sorted.size(), false);
    for (uint64_t h : hashes) {
      const size_t i = std::lower_bound(sorted.begin(), sorted.end(), h) - sorted.begin();
      if (!kept[i]) distinct.push_back(h);
      kept[i] = true;
    }
  }
  CompactFilterBuilder builder(bpk);
  for (const std::string& k : keys) builder.AddKey(k);
  SSTFILTER_FUZZ_CHECK(builder.NumEntries() == hashes.size(), where);
  std::string filter;
  builder.Finish(&filter);
  SSTFILTER_FUZZ_CHECK(filter.size() >= 2 && filter.back() == 'F', where);
  const auto body = static_cast<unsigned char>(filter[filter.size() - 2]);
  if (body == 1) {
    SSTFILTER_FUZZ_CHECK(filter.size() >= 18, where);
    const size_t t = filter.size() - 18;
    const uint64_t segments = Fixed32At(filter, t), narrow = Fixed32At(filter, t + 4);
    const uint32_t seed = Fixed32At(filter, t + 8);
    const int lg = filter[t + 12], r = filter[t + 13];
    SSTFILTER_FUZZ_CHECK(filter[t + 14] == 4 && filter[t + 15] == 2, where);
    SSTFILTER_FUZZ_CHECK(seed < 10 && lg >= 0 && lg <= 18 && r >= 1 && r <= 32 && segments > 0 &&
                             narrow <= segments << lg,
                         where, " seed ", seed, " lg ", lg, " r ", r);
    SSTFILTER_FUZZ_CHECK(t == ((((segments + 3) << lg) * r - narrow) + 7) / 8, where, " array ", t);
    SSTFILTER_FUZZ_CHECK(filter.size() == builder.FilterSize(hashes.size()) ||
                             filter.size() == builder.FilterSize(distinct.size()),
                         where, " size ", filter.size());
    SSTFILTER_FUZZ_CHECK(builder.num_fallbacks() == 0, where);
  } else {
    SSTFILTER_FUZZ_CHECK(body == 2 || body == 3, where, " body ", body);
    const int k = CacheLocalBloomBuilder(bpk).num_probes();
    const std::string bloom = filter.substr(0, filter.size() - 2);
    const std::vector<uint64_t>* held = nullptr;
    for (const std::vector<uint64_t>* h : {&hashes, &distinct}) {
      if (held == nullptr && bloom == RefBuild(*h, RefFilterShape(h->size(), bpk), k)) held = h;
    }
    SSTFILTER_FUZZ_CHECK(held != nullptr, "Bloom body differs from the reference's: ", where);
    SSTFILTER_FUZZ_CHECK(filter.size() == CacheLocalFormulaBytes(held->size(), bpk) + 2, where,
                         " size ", filter.size());
    // Small: planned, the Bloom filter the smaller; fallen back (every
    // seed failed): where a fuse filter was planned.
    SSTFILTER_FUZZ_CHECK(builder.UsesFuse(held->size()) == (body == 3), where, " body ", body);
  }
  // The size formula, inverted (a fallback is larger than planned).
  for (size_t n : {hashes.size(), distinct.size()}) {
    if (body != 3 && filter.size() == builder.FilterSize(n)) {
      CheckInverse(filter.size(), builder.MaxEntriesForSize(filter.size()), n,
                   [&builder](size_t m) { return builder.FilterSize(m); }, where);
    }
  }
  // Every SIMD level's reader (the query kernels; a Bloom body's too).
  CheckEveryLevelFindsEveryKey<CompactFilterReader>(filter, keys, where);
}

// The banded encoding from its format (banded/format.h, banded/probes.h),
// read here by a reader of its own: final byte 'B', the body kind before
// it. A layers body's trailer: L 32-bit block counts, narrow_blocks, L, r,
// hash kind 1, and layers of blocks (c words + a code byte each; narrow
// blocks of layer 0 have r - 1 words) filling the rest exactly. Every key's
// band in the first layer whose threshold keeps it satisfies its r (or r
// - 1) parity equations. A Bloom body is the reference cache-local filter.
uint64_t RefMix64(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

struct RefLayer {
  size_t offset;  // Of its first block in the filter.
  uint64_t blocks, narrow;
  int columns;
};

// Whether the reference reading of the layers finds hash h.
bool RefBandedMayMatch(std::string_view f, const std::vector<RefLayer>& layers, uint64_t h) {
  static constexpr uint32_t kThresholds[] = {64, 56, 48, 40, 32, 16, 0};
  for (size_t i = 0; i < layers.size(); ++i) {
    const RefLayer& l = layers[i];
    const uint64_t x = i == 0 ? h : RefMix64(h + i * 0x9e3779b97f4a7c15ULL);
    const uint64_t start = static_cast<uint64_t>(
        (static_cast<unsigned __int128>(x) * (l.blocks * 64 - 63)) >> 64);
    const uint64_t b = start / 64;
    const int columns = l.columns - (b < l.narrow ? 1 : 0);
    size_t at = l.offset;
    for (uint64_t j = 0; j < b; ++j) at += 8 * (l.columns - (j < l.narrow ? 1 : 0)) + 1;
    const auto code = static_cast<unsigned char>(f[at + 8 * columns]);
    if (start % 64 >= (code < 7 ? kThresholds[code] : 0)) continue;  // Bumped.
    const uint64_t coefficients = (x * 0xc28f82822b650bedULL) | 1;
    const uint64_t fingerprint = RefMix64(x);
    bool match = true;
    for (int c = 0; c < columns; ++c) {
      int parity = 0;
      for (int k = 0; k < 64; ++k) {
        if (((coefficients >> k) & 1) == 0) continue;
        const uint64_t slot = start + k;
        const size_t block = at + (slot / 64 == b ? 0 : 8 * columns + 1);
        const auto byte = static_cast<unsigned char>(f[block + 8 * c + (slot % 64) / 8]);
        parity ^= (byte >> (slot % 8)) & 1;
      }
      match &= parity == static_cast<int>((fingerprint >> c) & 1);
    }
    return match;
  }
  return true;
}

void CheckBanded(const std::vector<std::string>& keys, double bpk) {
  const std::string where = absl::StrCat("banded bpk ", bpk, " keys ", keys.size());
  const std::vector<uint64_t> hashes = RefHashesOnce(keys);
  BandedFilterBuilder builder(bpk);
  for (const std::string& k : keys) builder.AddKey(k);
  SSTFILTER_FUZZ_CHECK(builder.NumEntries() == hashes.size(), where);
  std::string filter;
  builder.Finish(&filter);
  SSTFILTER_FUZZ_CHECK(filter.size() >= 2 && filter.back() == 'B', where);
  const auto body = static_cast<unsigned char>(filter[filter.size() - 2]);
  if (body == 1) {
    const int num_layers = filter[filter.size() - 5], r = filter[filter.size() - 4];
    SSTFILTER_FUZZ_CHECK(
        num_layers >= 1 && num_layers <= 4 && r >= 1 && r <= 16 && filter[filter.size() - 3] == 1,
        where, " layers ", num_layers, " r ", r);
    const size_t t = filter.size() - 9 - 4 * num_layers;
    std::vector<RefLayer> layers;
    size_t offset = 0;
    for (int i = 0; i < num_layers; ++i) {
      const uint64_t blocks = Fixed32At(filter, t + 4 * i);
      const uint64_t narrow = i == 0 ? Fixed32At(filter, t + 4 * num_layers) : 0;
      SSTFILTER_FUZZ_CHECK(blocks >= 1 && narrow <= blocks, where, " layer ", i);
      layers.push_back({offset, blocks, narrow, r});
      offset += narrow * (8 * (r - 1) + 1) + (blocks - narrow) * (8 * r + 1);
    }
    SSTFILTER_FUZZ_CHECK(offset == t, where, " layers end at ", offset, " trailer at ", t);
    // Layer 0 as planned for n keys; the later layers follow the keys
    // bumped (one layer where layer 0 bumped none).
    const BandedShape plan = BandedPlan(hashes.size(), bpk);
    SSTFILTER_FUZZ_CHECK(
        layers[0].blocks == plan.blocks[0] && layers[0].narrow == plan.widths.narrow_blocks &&
            r == static_cast<int>(plan.widths.columns),
        where, " layer 0 of ", layers[0].blocks, " blocks, planned ", plan.blocks[0]);
    for (size_t i = 0; i < keys.size(); ++i) {
      SSTFILTER_FUZZ_CHECK(RefBandedMayMatch(filter, layers, RefCacheLocalHash(keys[i])),
                           "reference reading misses a key: ", where, " key ", Printable(keys[i]));
    }
  } else {
    SSTFILTER_FUZZ_CHECK(body == 2 || body == 3, where, " body ", body);
    const int k = CacheLocalBloomBuilder(bpk).num_probes();
    SSTFILTER_FUZZ_CHECK(filter.substr(0, filter.size() - 2) ==
                             RefBuild(hashes, RefFilterShape(hashes.size(), bpk), k),
                         "Bloom body differs from the reference's: ", where);
    // Small: planned, the Bloom filter the smaller; fallen back: where layers
    // were planned (the keys bumped from every layer; rare).
    SSTFILTER_FUZZ_CHECK(builder.UsesLayers(hashes.size()) == (body == 3), where, " body ", body);
  }
  if (filter.size() == builder.FilterSize(hashes.size())) {
    CheckInverse(filter.size(), builder.MaxEntriesForSize(filter.size()), hashes.size(),
                 [&builder](size_t m) { return builder.FilterSize(m); }, where);
  }
  CheckEveryLevelFindsEveryKey<BandedFilterReader>(filter, keys, where);
}

// Each encoding's independent account. An encoding added to the list needs
// one here: until then this does not compile.
template <typename E>
void CheckIndependently(const std::vector<std::string>& keys, double bpk) {
  if constexpr (std::is_same_v<E, LevelDbEncoding>) {
    CheckLevelDb(keys, bpk);
  } else if constexpr (std::is_same_v<E, CacheLocalEncoding>) {
    CheckCacheLocal(keys, bpk);
  } else if constexpr (std::is_same_v<E, CompactEncoding>) {
    CheckCompact(keys, bpk);
  } else if constexpr (std::is_same_v<E, BandedEncoding>) {
    CheckBanded(keys, bpk);
  } else {
    static_assert(sizeof(E) == 0, "build_roundtrip_fuzzer: no independent check of this encoding");
  }
}

// The name of the encoding whose bytes filter holds, as the list recognises them.
std::string_view RecognisedAs(std::string_view filter) {
  return VisitEncodingOf(filter, [](auto e) -> std::string_view {
    if constexpr (std::is_same_v<decltype(e), UnrecognisedEncoding>) {
      return "unrecognised";
    } else {
      return decltype(e)::kInfo.name;
    }
  });
}

// What holds for every encoding of the list, by its own builder and reader.
template <typename E>
void CheckEncoding(const std::vector<std::string>& keys, double bpk) {
  const std::string where = absl::StrCat(std::string(E::kInfo.name), " bpk ", bpk, " keys ", keys.size());
  typename E::Builder builder(bpk);
  for (const std::string& k : keys) builder.AddKey(k);
  SSTFILTER_FUZZ_CHECK(builder.NumEntries() <= keys.size(), where);
  const size_t planned = builder.FinishSize();
  // The entries the filter holds (compact may drop duplicate hashes while
  // building): a filter of this size can hold as many.
  const size_t entries = builder.NumEntries();
  // The size planned for them (a banded filter's built size follows the
  // keys its layer 0 bumped) holds them.
  SSTFILTER_FUZZ_CHECK(builder.MaxEntriesForSize(builder.FilterSize(entries)) >= entries, where,
                       " size ", builder.FilterSize(entries));
  std::string filter;
  builder.Finish(&filter);
  SSTFILTER_FUZZ_CHECK(filter.size() == planned, where, " size ", filter.size(), " planned ", planned);
  SSTFILTER_FUZZ_CHECK(RecognisedAs(filter) == E::kInfo.name, where, " read as ",
                       std::string(RecognisedAs(filter)));
  ForEachEncoding([&](auto other) {
    using Other = decltype(other);
    constexpr bool kSame = std::is_same_v<Other, E>;
    SSTFILTER_FUZZ_CHECK(Other::kInfo.recognises(filter) == kSame, where, " recognised by ",
                         std::string(Other::kInfo.name));
  });
  const ExactBytes exact(filter);
  const typename E::Reader reader(exact.view());
  // Probed; with no entries, the empty filter (or, in LevelDB's format,
  // bits all clear): nothing matches.
  SSTFILTER_FUZZ_CHECK(reader.state() == FilterState::kProbe ||
                           (entries == 0 && reader.state() == FilterState::kMatchNothing),
                       where);
  SSTFILTER_FUZZ_CHECK(DescribeFilter(filter).state == reader.state(), where, " ",
                       DescribeFilter(filter).name);
  for (int i = 0; entries == 0 && i < 16; ++i) {
    SSTFILTER_FUZZ_CHECK(!reader.MayMatch(absl::StrCat("absent", i)), where);
  }
  std::vector<std::string_view> views(keys.begin(), keys.end());
  std::unique_ptr<bool[]> batch(new bool[keys.size()]);
  reader.MayMatchBatch(views, batch.get());
  for (size_t i = 0; i < keys.size(); ++i) {
    SSTFILTER_FUZZ_CHECK(reader.MayMatch(keys[i]) && batch[i], where, " key ", Printable(keys[i]));
  }
}

// Through RocksDB's FilterBitsBuilder / FilterBitsReader, post-verified.
template <typename E>
void CheckRocksDb(const std::vector<std::string>& keys, double bpk) {
  const std::string where =
      absl::StrCat(std::string(E::kInfo.name), " via rocksdb, bpk ", bpk, " keys ", keys.size());
  FilterOptions options;
  options.bits_per_key = bpk;
  options.encoding = E::kId;
  const std::unique_ptr<rocksdb::FilterPolicy> policy = NewRocksDbFilterPolicy(options).value();
  rocksdb::BlockBasedTableOptions table_options;
  table_options.detect_filter_construct_corruption = true;
  const std::unique_ptr<rocksdb::FilterBitsBuilder> builder(
      policy->GetBuilderWithContext(rocksdb::FilterBuildingContext(table_options)));
  // Entries: keys whose hash differs from the previous key's (each
  // encoding's hash is checked against independent bytes in
  // CheckIndependently); the encoding's builder given just those.
  typename E::Builder direct(bpk);
  size_t distinct = 0;
  for (size_t i = 0; i < keys.size(); ++i) {
    builder->AddKey(keys[i]);
    if (i == 0 || E::Builder::HashKey(keys[i]) != E::Builder::HashKey(keys[i - 1])) {
      ++distinct;
      direct.AddKey(keys[i]);
    }
  }
  const size_t added = builder->EstimateEntriesAdded();
  SSTFILTER_FUZZ_CHECK(added == distinct, where, " added ", added, " expected ", distinct);
  std::unique_ptr<const char[]> buf;
  const rocksdb::Slice filter = builder->Finish(&buf);
  const rocksdb::Status verified = builder->MaybePostVerify(filter);
  SSTFILTER_FUZZ_CHECK(verified.ok(), where, " ", verified.ToString());
  direct.FinishSize();
  const size_t held = direct.NumEntries();  // Compact may drop duplicate hashes.
  std::string expected;
  direct.Finish(&expected);
  SSTFILTER_FUZZ_CHECK(filter.ToString() == expected, where, " size ", filter.size(),
                       ", the encoding's builder ", expected.size());
  const size_t max_entries = builder->ApproximateNumEntries(direct.FilterSize(held));
  SSTFILTER_FUZZ_CHECK(max_entries >= held, where, " max ", max_entries, " held ", held);
  const std::unique_ptr<rocksdb::FilterBitsReader> reader(policy->GetFilterBitsReader(filter));
  for (const std::string& k : keys) {
    SSTFILTER_FUZZ_CHECK(reader->MayMatch(k), where, " key ", Printable(k));
  }
}

}  // namespace
}  // namespace sstfilter::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sstfilter;
  using namespace sstfilter::fuzz;
  FuzzedDataProvider in(data, size);
  const size_t encoding = in.ConsumeIntegralInRange<size_t>(0, kNumEncodings - 1);
  const double bpk = ConsumeBitsPerKey(in);
  const std::vector<std::string> keys = ConsumeKeys(in, kMaxKeys, kManyKeys);
  VisitEncoding(AllEncodingIds()[encoding], [&](auto e) {
    using E = decltype(e);
    CheckEncoding<E>(keys, bpk);
    CheckIndependently<E>(keys, bpk);
    // A policy takes bits_per_key from kMinBitsPerKey on (less means
    // nothing, filter/filter_options.h); the builders any setting.
    if (bpk >= kMinBitsPerKey) CheckRocksDb<E>(keys, bpk);
  });
  return 0;
}

// Fuzz target: builder -> reader round trips with adversarial keys and
// options, in both formats.
//
// Keys: duplicates (adjacent, as RocksDB hands them), empty, long, "key" +
// decimal, and up to 20,000 generated keys. bits_per_key: anywhere in its
// valid range (0, 100], fractions and subnormals included. For each build:
//   - no false negative: every key may match, in every reader (single,
//     hashed, batched; each SIMD level), and the filter is probed (or, with
//     no keys, the empty cache-local filter matches nothing);
//   - the size is the format's formula for n entries, written out here
//     (LevelDB: max(n * bpk, 64) bits rounded to bytes, + 1; cache-local:
//     lines = ceil(n * bpk / 512), lines * 64 + 4 above 8 lines, else
//     lines * ceil(n * bpk / (8 * lines)) + 4), n counted here (LevelDB keeps every
//     key, cache-local drops a key whose hash equals the previous one's),
//     and MaxEntriesForSize inverts it exactly;
//   - independent bytes: LevelDB's own CreateFilter at an integral bits/key,
//     the reference cache-local builder (cache_local_reference.h), the same
//     bytes from every SIMD level;
//   - through RocksDB's interface (the policy's FilterBitsBuilder with
//     detect_filter_construct_corruption): MaybePostVerify accepts the
//     filter, EstimateEntriesAdded and the size count keys de-duplicated
//     against the previous key, ApproximateNumEntries inverts the size, and
//     the policy's reader finds every key.
#include <leveldb/filter_policy.h>
#include <leveldb/slice.h>
#include <rocksdb/table.h>

#include <cmath>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "filter/filter_options.h"
#include "filter/cache_local/bloom.h"
#include "filter/simd_level.h"
#include "filter/leveldb/bloom.h"
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

void CheckCacheLocal(const std::vector<std::string>& keys, double bpk) {
  const std::string where = absl::StrCat("cache_local bpk ", bpk, " keys ", keys.size());
  std::vector<uint64_t> hashes;  // Adjacent equal hashes count once.
  for (const std::string& k : keys) {
    const uint64_t h = RefCacheLocalHash(k);
    if (hashes.empty() || hashes.back() != h) hashes.push_back(h);
  }
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

// Through RocksDB's FilterBitsBuilder / FilterBitsReader, post-verified.
void CheckRocksDb(const std::vector<std::string>& keys, double bpk, EncodingId format) {
  const std::string where = absl::StrCat(std::string(EncodingName(format)), " via rocksdb, bpk ", bpk,
                                         " keys ", keys.size());
  FilterOptions options;
  options.bits_per_key = bpk;
  options.encoding = format;
  const std::unique_ptr<rocksdb::FilterPolicy> policy = NewRocksDbFilterPolicy(options).value();
  rocksdb::BlockBasedTableOptions table_options;
  table_options.detect_filter_construct_corruption = true;
  const std::unique_ptr<rocksdb::FilterBitsBuilder> builder(
      policy->GetBuilderWithContext(rocksdb::FilterBuildingContext(table_options)));
  // Entries: keys whose hash differs from the previous key's (the LevelDB
  // hash itself is checked against LevelDB's bytes in CheckLevelDb).
  const auto hash = [format](const std::string& k) -> uint64_t {
    return format == EncodingId::kLevelDb ? LevelDbBloomBuilder::HashKey(k)
                                            : RefCacheLocalHash(k);
  };
  size_t distinct = 0;
  for (size_t i = 0; i < keys.size(); ++i) {
    builder->AddKey(keys[i]);
    if (i == 0 || hash(keys[i]) != hash(keys[i - 1])) ++distinct;
  }
  const size_t added = builder->EstimateEntriesAdded();
  SSTFILTER_FUZZ_CHECK(added == distinct, where, " added ", added, " expected ", distinct);
  std::unique_ptr<const char[]> buf;
  const rocksdb::Slice filter = builder->Finish(&buf);
  const rocksdb::Status verified = builder->MaybePostVerify(filter);
  SSTFILTER_FUZZ_CHECK(verified.ok(), where, " ", verified.ToString());
  const size_t formula = format == EncodingId::kLevelDb ? LevelDbFormulaBytes(added, bpk)
                                                          : CacheLocalFormulaBytes(added, bpk);
  SSTFILTER_FUZZ_CHECK(filter.size() == formula, where, " size ", filter.size());
  const size_t max_entries = builder->ApproximateNumEntries(filter.size());
  SSTFILTER_FUZZ_CHECK(max_entries >= added, where, " max ", max_entries);
  const std::unique_ptr<rocksdb::FilterBitsReader> reader(policy->GetFilterBitsReader(filter));
  for (const std::string& k : keys) {
    SSTFILTER_FUZZ_CHECK(reader->MayMatch(k), where, " key ", Printable(k));
  }
}

}  // namespace
}  // namespace sstfilter::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sstfilter::fuzz;
  using sstfilter::EncodingId;
  FuzzedDataProvider in(data, size);
  const EncodingId format = in.ConsumeBool() ? EncodingId::kCacheLocal : EncodingId::kLevelDb;
  const double bpk = ConsumeBitsPerKey(in);
  const std::vector<std::string> keys = ConsumeKeys(in, kMaxKeys, kManyKeys);
  if (format == EncodingId::kLevelDb) {
    CheckLevelDb(keys, bpk);
  } else {
    CheckCacheLocal(keys, bpk);
  }
  CheckRocksDb(keys, bpk, format);
  return 0;
}

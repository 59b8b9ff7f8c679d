// Fuzz target: the cache-local reader against a plain reference
// (cache_local_reference.h), at every SIMD level, and the reader dispatch
// of both policies.
//
// On any filter bytes (raw; a raw bit array under a well-formed trailer; or
// a filter the reference built and the fuzzer damaged) and any keys:
//   - CacheLocalBloomReader at each level of SupportedSimdLevels() (its
//     MayMatch, HashMayMatch and MayMatchBatch) answers what the reference
//     answers, and its state is the reference's reading of the trailer;
//   - sstfilter's FilterPolicy::KeyMayMatch and the RocksDB glue's
//     FilterBitsReader (MayMatch, batched MultiGet MayMatch) answer the
//     reference's answer for filters ending in the cache-local tag (67, 4
//     bytes or more) and libleveldb's answer for every other filter.
// The filter sits in an allocation of exactly its size (ASan sees overreads).
#include <leveldb/filter_policy.h>
#include <leveldb/slice.h>

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "filter/cache_local/bloom.h"
#include "filter/simd_level.h"
#include "filter/filter_policy.h"
#include "fuzz/bits_reader_check.h"
#include "fuzz/cache_local_reference.h"
#include "fuzz/fuzz_util.h"

namespace sstfilter::fuzz {
namespace {

constexpr size_t kMaxKeys = 40;

std::string ConsumeFilter(FuzzedDataProvider& in, const std::vector<std::string>& keys) {
  switch (in.ConsumeIntegralInRange(0, 2)) {
    case 0:
      return in.ConsumeRandomLengthString(600);
    case 1: {  // Random bits under a valid trailer: whole lines, or narrow ones.
      const size_t bytes = in.ConsumeBool() ? 64 * in.ConsumeIntegralInRange(0, 8)
                                            : in.ConsumeIntegralInRange(0, 600);
      std::string f(bytes, '\0');
      for (char& c : f) c = in.ConsumeIntegral<char>();
      f += {char{1}, char{6}, static_cast<char>(in.ConsumeIntegralInRange(0, 33)), char{67}};
      return f;
    }
    default: {  // A real filter, then damaged.
      std::vector<uint64_t> hashes;
      for (const std::string& k : keys) hashes.push_back(RefCacheLocalHash(k));
      const uint64_t lines = in.ConsumeIntegralInRange(1, 16);
      const uint64_t line_bytes = lines > 8 ? 64 : in.ConsumeIntegralInRange(1, 64);
      std::string f = RefBuild(hashes, RefShape{lines, line_bytes},
                               in.ConsumeIntegralInRange(1, 32));
      DamageFilter(in, &f);
      return f;
    }
  }
}

FilterState RefState(std::string_view filter) {
  RefShape shape;
  int k;
  switch (RefParse(filter, &shape, &k)) {
    case RefAnswer::kProbe:
      return FilterState::kProbe;
    case RefAnswer::kNothing:
      return FilterState::kMatchNothing;
    case RefAnswer::kEverything:
      break;
  }
  return FilterState::kMatchEverything;
}

void CheckCacheLocalReaders(std::string_view filter, const std::vector<std::string_view>& keys,
                            const std::vector<bool>& expected) {
  for (SimdLevel level : SupportedSimdLevels()) {
    const CacheLocalBloomReader reader(filter, level);
    const std::string level_name(SimdLevelName(level));
    SSTFILTER_FUZZ_CHECK(reader.state() == RefState(filter), level_name, " filter ",
                         Printable(filter));
    std::unique_ptr<bool[]> batch(new bool[keys.size()]);
    reader.MayMatchBatch(keys, batch.get());
    for (size_t i = 0; i < keys.size(); ++i) {
      const std::string where = absl::StrCat(level_name, " key ", Printable(keys[i]),
                                             " filter ", Printable(filter));
      SSTFILTER_FUZZ_CHECK(reader.MayMatch(keys[i]) == expected[i], where);
      SSTFILTER_FUZZ_CHECK(reader.HashMayMatch(RefCacheLocalHash(keys[i])) == expected[i], where);
      SSTFILTER_FUZZ_CHECK(batch[i] == expected[i], "batch: ", where);
    }
  }
}

// Both policies pick the encoding by the filter's final byte.
void CheckPolicyDispatch(std::string_view filter, const std::vector<std::string_view>& keys) {
  static const leveldb::FilterPolicy* leveldb_policy = leveldb::NewBloomFilterPolicy(10);
  static const FilterPolicy* policy = NewFilterPolicy({}).value().release();
  const bool cache_local_tag = filter.size() >= 4 && static_cast<unsigned char>(filter.back()) == 67;
  std::vector<bool> expected;
  for (std::string_view key : keys) {
    expected.push_back(cache_local_tag ? RefMayMatch(filter, key)
                                       : leveldb_policy->KeyMayMatch(
                                             {key.data(), key.size()},
                                             {filter.data(), filter.size()}));
  }
  for (size_t i = 0; i < keys.size(); ++i) {
    SSTFILTER_FUZZ_CHECK(policy->KeyMayMatch(keys[i], filter) == expected[i], "policy: key ",
                         Printable(keys[i]), " filter ", Printable(filter));
  }
  CheckBitsReader(filter, keys, expected);
}

}  // namespace
}  // namespace sstfilter::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sstfilter::fuzz;
  FuzzedDataProvider in(data, size);
  std::vector<std::string> keys = ConsumeKeys(in, kMaxKeys);
  const ExactBytes filter(ConsumeFilter(in, keys));
  for (std::string& k : ConsumeKeys(in, kMaxKeys)) keys.push_back(std::move(k));
  std::vector<ExactBytes> exact_keys;
  std::vector<std::string_view> views;
  std::vector<bool> expected;
  for (const std::string& k : keys) exact_keys.emplace_back(k);
  for (const ExactBytes& k : exact_keys) {
    views.push_back(k.view());
    expected.push_back(RefMayMatch(filter.view(), k.view()));
  }
  CheckCacheLocalReaders(filter.view(), views, expected);
  CheckPolicyDispatch(filter.view(), views);
  return 0;
}

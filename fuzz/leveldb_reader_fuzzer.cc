// Fuzz target: the LevelDB-encoding reader against LevelDB itself.
//
// On any filter bytes (raw, or a filter LevelDB built and the fuzzer then
// damaged: truncated, bits flipped, trailer overwritten) and any keys, every
// way sstfilter reads that encoding (LevelDbBloomReader's MayMatch,
// HashMayMatch and MayMatchBatch, LevelDbBloomMayMatch) answers exactly what
// libleveldb's leveldb::NewBloomFilterPolicy(...)->KeyMayMatch answers: the
// encoding is LevelDB's, bit for bit, damaged filters included. The
// reader's state is the documented contract (leveldb/bloom.h): fewer than
// 2 bytes match nothing; k byte 0 or > 30 match everything; else probe.
// The filter sits in an allocation of exactly its size, so ASan flags any
// read past it.
#include <leveldb/filter_policy.h>
#include <leveldb/slice.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "filter/leveldb/bloom.h"
#include "fuzz/fuzz_util.h"

namespace sstfilter::fuzz {
namespace {

constexpr size_t kMaxKeys = 40;

const leveldb::FilterPolicy& LevelDbPolicy() {
  // Reading does not depend on the policy's bits_per_key.
  static const leveldb::FilterPolicy* policy = leveldb::NewBloomFilterPolicy(10);
  return *policy;
}

leveldb::Slice ToSlice(std::string_view s) { return {s.data(), s.size()}; }

// The filter to read: raw fuzzer bytes, or LevelDB's own filter for the
// keys at an integral bits/key, then damaged.
std::string ConsumeFilter(FuzzedDataProvider& in, const std::vector<std::string>& keys) {
  if (in.ConsumeBool()) return in.ConsumeRandomLengthString(600);
  const auto* policy = leveldb::NewBloomFilterPolicy(in.ConsumeIntegralInRange(1, 100));
  std::vector<leveldb::Slice> slices;
  for (const std::string& k : keys) slices.push_back(ToSlice(k));
  std::string filter;
  policy->CreateFilter(slices.data(), static_cast<int>(slices.size()), &filter);
  delete policy;
  DamageFilter(in, &filter);
  return filter;
}

FilterState ContractState(std::string_view filter) {
  if (filter.size() < 2) return FilterState::kMatchNothing;
  const int k = static_cast<unsigned char>(filter.back());
  return k == 0 || k > 30 ? FilterState::kMatchEverything : FilterState::kProbe;
}

void CheckOneFilter(std::string_view filter, const std::vector<ExactBytes>& keys) {
  const LevelDbBloomReader reader(filter);
  const FilterState state = ContractState(filter);
  SSTFILTER_FUZZ_CHECK(reader.state() == state, "filter ", Printable(filter));
  std::vector<std::string_view> views;
  for (const ExactBytes& k : keys) views.push_back(k.view());
  std::unique_ptr<bool[]> batch(new bool[views.size()]);
  reader.MayMatchBatch(views, batch.get());
  for (size_t i = 0; i < views.size(); ++i) {
    const std::string_view key = views[i];
    const bool expected = LevelDbPolicy().KeyMayMatch(ToSlice(key), ToSlice(filter));
    const std::string where = absl::StrCat("key ", Printable(key), " filter ", Printable(filter));
    if (state != FilterState::kProbe) {
      SSTFILTER_FUZZ_CHECK(expected == (state == FilterState::kMatchEverything),
                           "LevelDB disagrees with the documented contract: ", where);
    }
    SSTFILTER_FUZZ_CHECK(reader.MayMatch(key) == expected, where);
    SSTFILTER_FUZZ_CHECK(reader.HashMayMatch(LevelDbBloomBuilder::HashKey(key)) == expected,
                         where);
    SSTFILTER_FUZZ_CHECK(batch[i] == expected, "batch: ", where);
    SSTFILTER_FUZZ_CHECK(LevelDbBloomMayMatch(filter, key) == expected, where);
  }
}

}  // namespace
}  // namespace sstfilter::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sstfilter::fuzz;
  FuzzedDataProvider in(data, size);
  std::vector<std::string> keys = ConsumeKeys(in, kMaxKeys);
  const ExactBytes filter(ConsumeFilter(in, keys));
  // Questions: the filter's keys and others.
  for (std::string& k : ConsumeKeys(in, kMaxKeys)) keys.push_back(std::move(k));
  std::vector<ExactBytes> exact_keys;
  for (const std::string& k : keys) exact_keys.emplace_back(k);
  CheckOneFilter(filter.view(), exact_keys);
  return 0;
}

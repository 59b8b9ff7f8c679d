// Fuzz target: the compact reader on any bytes, at every SIMD level.
//
// Filters: raw bytes; random cells under a well-formed fuse trailer (any
// small shape the format allows, its length sometimes off by one); or a
// filter CompactFilterBuilder built from the keys, then maybe damaged.
// Checks, the filter in an allocation of exactly its size (ASan sees reads
// past it):
//   - at every level, MayMatch, HashMayMatch of the key's XXH3 hash, and
//     MayMatchBatch over all keys (groups the SIMD kernels take) give one
//     answer per key, and every level gives the scalar level's answer;
//   - for filters the glue reads as compact ones (IsCompactFilter), the
//     RocksDB glue's FilterBitsReader (single and MultiGet batches) gives
//     that answer too;
//   - an undamaged built filter matches every key it was built from.
#include <algorithm>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "filter/key_hash64.h"
#include "filter/compact/filter.h"
#include "fuzz/bits_reader_check.h"
#include "fuzz/fuzz_util.h"

namespace sstfilter::fuzz {
namespace {

constexpr size_t kMaxKeys = 40;
constexpr size_t kManyKeys = 3000;  // Fuse bodies need a few hundred keys.

void PutFixed32(std::string* out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>(v >> (8 * i)));
}

// Random cells under a fuse trailer the reader accepts (compact/filter.h),
// unless the length is nudged.
std::string RandomFuseFilter(FuzzedDataProvider& in) {
  FuseShape s;
  s.segment_count = in.ConsumeIntegralInRange<uint32_t>(1, 5);
  s.log_segment_length = in.ConsumeIntegralInRange(0, 7);
  s.fingerprint_bits = in.ConsumeIntegralInRange(1, 32);
  s.narrow_cells = in.ConsumeIntegralInRange<uint32_t>(0, static_cast<uint32_t>(s.window_starts()));
  const int nudge = in.ConsumeIntegralInRange(-1, 1) * (in.ConsumeIntegralInRange(0, 3) == 0);
  std::string f(static_cast<size_t>(static_cast<int64_t>(s.array_bytes()) + nudge), '\0');
  for (char& c : f) c = in.ConsumeIntegral<char>();
  PutFixed32(&f, s.segment_count);
  PutFixed32(&f, s.narrow_cells);
  PutFixed32(&f, in.ConsumeIntegral<uint32_t>());  // Seed.
  f += {static_cast<char>(s.log_segment_length), static_cast<char>(s.fingerprint_bits),
        char{4}, static_cast<char>(kCompactHashXxh3), static_cast<char>(kCompactBodyFuse),
        static_cast<char>(kCompactTag)};
  return f;
}

struct FuzzFilter {
  std::string bytes;
  std::vector<std::string> built_from;  // Empty unless built and undamaged.
};

FuzzFilter ConsumeFilter(FuzzedDataProvider& in, const std::vector<std::string>& keys) {
  switch (in.ConsumeIntegralInRange(0, 2)) {
    case 0:
      return {in.ConsumeRandomLengthString(600), {}};
    case 1:
      return {RandomFuseFilter(in), {}};
    default: {
      CompactFilterBuilder builder(in.ConsumeFloatingPointInRange(0.5, 40.0));
      for (const std::string& k : keys) builder.AddKey(k);
      FuzzFilter f;
      builder.Finish(&f.bytes);
      if (in.ConsumeBool()) {
        DamageFilter(in, &f.bytes);
      } else {
        f.built_from = keys;
      }
      return f;
    }
  }
}

void CheckReaders(std::string_view filter, const std::vector<std::string_view>& keys) {
  std::vector<bool> expected;
  for (SimdLevel level : SupportedSimdLevels()) {
    const CompactFilterReader reader(filter, level);
    const std::string level_name(SimdLevelName(level));
    std::unique_ptr<bool[]> batch(new bool[keys.size()]);
    reader.MayMatchBatch(keys, batch.get());
    for (size_t i = 0; i < keys.size(); ++i) {
      const bool single = reader.MayMatch(keys[i]);
      if (level == SimdLevel::kScalar) expected.push_back(single);
      const std::string where = absl::StrCat(level_name, " key ", Printable(keys[i]),
                                             " filter ", Printable(filter));
      SSTFILTER_FUZZ_CHECK(single == expected[i], "level differs: ", where);
      SSTFILTER_FUZZ_CHECK(reader.HashMayMatch(KeyHash64(keys[i])) == single, where);
      SSTFILTER_FUZZ_CHECK(batch[i] == single, "batch: ", where);
    }
  }
  if (!IsCompactFilter(filter)) return;  // Another encoding's (their fuzzers).
  CheckBitsReader(filter, keys, expected);
}

}  // namespace
}  // namespace sstfilter::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sstfilter;
  using namespace sstfilter::fuzz;
  FuzzedDataProvider in(data, size);
  std::vector<std::string> keys = ConsumeKeys(in, kMaxKeys, kManyKeys);
  const FuzzFilter made = ConsumeFilter(in, keys);
  const ExactBytes filter(made.bytes);
  for (std::string& k : ConsumeKeys(in, kMaxKeys)) keys.push_back(std::move(k));
  std::vector<ExactBytes> exact_keys;
  std::vector<std::string_view> views;
  for (const std::string& k : keys) exact_keys.emplace_back(k);
  for (const ExactBytes& k : exact_keys) views.push_back(k.view());
  CheckReaders(filter.view(), views);
  const CompactFilterReader reader(filter.view());
  for (const std::string& k : made.built_from) {
    SSTFILTER_FUZZ_CHECK(reader.MayMatch(k), "false negative: key ", Printable(k));
  }
  return 0;
}

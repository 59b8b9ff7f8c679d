#include "filter/leveldb/bloom.h"

#include <algorithm>
#include <cassert>
#include <cstring>

#include "filter/bloom_math.h"
#include "filter/leveldb/hash.h"
#include "filter/leveldb/probes.h"

namespace sstfilter {

LevelDbBloomBuilder::LevelDbBloomBuilder(double bits_per_key)
    : BuilderBase(bits_per_key, LevelDbNumProbes(bits_per_key)) {}

void LevelDbBloomBuilder::Retune(double bits_per_key) {
  SetSettings(bits_per_key, LevelDbNumProbes(bits_per_key));
}

LevelDbBloomBuilder::Hash LevelDbBloomBuilder::HashKey(std::string_view key) {
  return LevelDbBloomHash(key);
}

size_t LevelDbBloomBuilder::FilterSize(size_t num_entries) const {
  return LevelDbFilterBits(num_entries, bits_per_key_) / 8 + 1;
}

size_t LevelDbBloomBuilder::MaxEntriesForSize(size_t bytes) const {
  if (bytes < FilterSize(0)) return 0;
  return LargestFittingEntries([&](size_t n) { return FilterSize(n) <= bytes; });
}

size_t LevelDbBloomBuilder::FittingFilterSize(size_t /*num_entries*/, size_t bytes) const {
  return bytes >= FilterSize(0) ? bytes : 0;
}

double LevelDbBloomBuilder::BuiltFpRate(size_t bytes) const {
  return kLevelDbEncodingInfo.sized_fp_rate(NumEntries(), bytes, bits_per_key());
}

void LevelDbBloomBuilder::FinishInto(char* out, size_t bytes) {
  assert(bytes >= 2);
  const size_t bits = (bytes - 1) * 8;
  std::memset(out, 0, bits / 8);
  out[bits / 8] = static_cast<char>(num_probes_);
  GetLevelDbKernels(num_probes_).set(hashes_.data(), hashes_.size(), FastMod32(bits), out);
  hashes_.clear();
}

void AppendLevelDbBloomFilter(absl::Span<const std::string_view> keys,
                              double bits_per_key, std::string* dst) {
  LevelDbBloomBuilder builder(bits_per_key);
  for (std::string_view key : keys) builder.AddKey(key);
  builder.Finish(dst);
}

LevelDbBloomReader::LevelDbBloomReader(std::string_view filter) {
  const ParsedFilter<LevelDbFilterLayout> parsed = ParseLevelDbFilter(filter);
  if (!TakeParsed(parsed)) return;
  num_bits_ = parsed.layout.num_bits;
  bit_divisor_ = FastMod32(num_bits_);
  kernels_ = &GetLevelDbKernels(num_probes_);
}

bool LevelDbBloomReader::HashMayMatch(uint32_t h) const {
  if (!Probes()) return FixedAnswer();
  return kernels_->test_hash(h, bit_divisor_, array_);
}

bool LevelDbBloomReader::MayMatch(std::string_view key) const {
  if (!Probes()) return FixedAnswer();
  return kernels_->test_key(key, bit_divisor_, array_);
}

bool LevelDbBloomMayMatch(std::string_view filter, std::string_view key) {
  return LevelDbBloomReader(filter).MayMatch(key);
}

}  // namespace sstfilter

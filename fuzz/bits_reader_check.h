// What the reader fuzz targets check of the RocksDB glue: the
// FilterBitsReader RocksDB would get for a filter (NewBitsReader) answers
// `expected` for every key, one by one and in MultiGet batches of up to 32
// (every answer written, none left as preset).
#ifndef SSTFILTER_FUZZ_BITS_READER_CHECK_H_
#define SSTFILTER_FUZZ_BITS_READER_CHECK_H_

#include <algorithm>
#include <memory>
#include <string_view>
#include <vector>

#include "fuzz/fuzz_util.h"
#include "table/rocksdb/bits_reader_factory.h"

namespace sstfilter::fuzz {

inline void CheckBitsReader(std::string_view filter, const std::vector<std::string_view>& keys,
                            const std::vector<bool>& expected) {
  constexpr size_t kMaxMultiGetKeys = 32;  // RocksDB's MultiGet batch.
  const std::unique_ptr<rocksdb::FilterBitsReader> bits_reader(
      NewBitsReader(rocksdb::Slice(filter.data(), filter.size())));
  std::vector<rocksdb::Slice> slices;
  for (std::string_view key : keys) slices.emplace_back(key.data(), key.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    SSTFILTER_FUZZ_CHECK(bits_reader->MayMatch(slices[i]) == expected[i], "rocksdb: key ",
                         Printable(keys[i]), " filter ", Printable(filter));
  }
  for (size_t base = 0; base < keys.size(); base += kMaxMultiGetKeys) {
    const size_t n = std::min(kMaxMultiGetKeys, keys.size() - base);
    rocksdb::Slice* batch_keys[kMaxMultiGetKeys];
    bool may_match[kMaxMultiGetKeys];
    for (size_t i = 0; i < n; ++i) {
      batch_keys[i] = &slices[base + i];
      may_match[i] = !expected[base + i];  // Wrong until written.
    }
    bits_reader->MayMatch(static_cast<int>(n), batch_keys, may_match);
    for (size_t i = 0; i < n; ++i) {
      SSTFILTER_FUZZ_CHECK(may_match[i] == expected[base + i], "rocksdb batch: key ",
                           Printable(keys[base + i]), " filter ", Printable(filter));
    }
  }
}

}  // namespace sstfilter::fuzz

#endif  // SSTFILTER_FUZZ_BITS_READER_CHECK_H_

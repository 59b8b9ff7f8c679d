// rocksdb::FilterBitsReader over one of our encodings' readers.
//
// FormatReader provides MayMatch(string_view) and
// MayMatchBatch(Span<const string_view>, bool*). It is immutable after
// construction, so one adapter is safe to share between threads. RocksDB
// destroys it after its last call returns (host_ordering.h tells TSan).
#ifndef SSTFILTER_TABLE_ROCKSDB_BITS_READER_ADAPTER_H_
#define SSTFILTER_TABLE_ROCKSDB_BITS_READER_ADAPTER_H_

#include <algorithm>
#include <string_view>

#include "table/rocksdb/host_ordering.h"
#include "table/rocksdb/rocksdb_internal.h"

namespace sstfilter {

template <typename FormatReader>
class BitsReaderAdapter final : public rocksdb::FilterBitsReader {
 public:
  // The filter bytes must outlive the reader (RocksDB keeps the block pinned).
  explicit BitsReaderAdapter(const rocksdb::Slice& filter)
      : reader_(std::string_view(filter.data(), filter.size())) {}
  ~BitsReaderAdapter() override { host_ordering::DestroyBegins(this); }

  bool MayMatch(const rocksdb::Slice& key) override {
    const bool may_match = reader_.MayMatch(std::string_view(key.data(), key.size()));
    host_ordering::UseEnds(this);
    return may_match;
  }

  // MultiGet: RocksDB presets only may_match[0]; every entry is written here.
  void MayMatch(int num_keys, rocksdb::Slice** keys, bool* may_match) override {
    constexpr int kChunk = 32;  // MultiGet batches are at most 32 keys.
    std::string_view views[kChunk];
    for (int base = 0; base < num_keys; base += kChunk) {
      const int n = std::min(kChunk, num_keys - base);
      for (int i = 0; i < n; ++i) {
        views[i] = std::string_view(keys[base + i]->data(), keys[base + i]->size());
      }
      reader_.MayMatchBatch({views, static_cast<size_t>(n)}, may_match + base);
    }
    host_ordering::UseEnds(this);
  }

 private:
  const FormatReader reader_;
};

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_ROCKSDB_BITS_READER_ADAPTER_H_

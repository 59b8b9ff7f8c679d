// rocksdb::FilterBitsReader over one of our encodings' readers.
//
// FormatReader provides MayMatch(string_view) and
// MayMatchBatch(Span<const string_view>, bool*); a reader that also has
// MayMatchEach(n, key_at, out) (cache-local) reads MultiGet's keys through
// key_at instead of a copy of them as views. It is immutable after
// construction, so one adapter is safe to share between threads. RocksDB
// destroys it after its last call returns (host_ordering.h tells TSan).
#ifndef SSTFILTER_TABLE_ROCKSDB_BITS_READER_ADAPTER_H_
#define SSTFILTER_TABLE_ROCKSDB_BITS_READER_ADAPTER_H_

#include <algorithm>
#include <string_view>
#include <type_traits>
#include <utility>

#include "table/rocksdb/host_ordering.h"
#include "table/rocksdb/rocksdb_internal.h"

namespace sstfilter {

namespace bits_reader_internal {
// A key accessor's shape, for the check below (never called).
struct ViewAt {
  std::string_view operator()(size_t i) const;
};
// Whether R has MayMatchEach(n, key_at, out) (filter/cache_local/bloom.h).
template <typename R, typename = void>
struct TakesKeyAccessor : std::false_type {};
template <typename R>
struct TakesKeyAccessor<R, std::void_t<decltype(std::declval<const R&>().MayMatchEach(
                               size_t{0}, ViewAt{}, static_cast<bool*>(nullptr)))>>
    : std::true_type {};
}  // namespace bits_reader_internal

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
    if constexpr (bits_reader_internal::TakesKeyAccessor<FormatReader>::value) {
      // The keys read where RocksDB holds them, without a copy into views.
      reader_.MayMatchEach(
          static_cast<size_t>(std::max(num_keys, 0)),
          [keys](size_t i) { return std::string_view(keys[i]->data(), keys[i]->size()); },
          may_match);
    } else {
      MayMatchByViews(num_keys, keys, may_match);
    }
    host_ordering::UseEnds(this);
  }

 private:
  void MayMatchByViews(int num_keys, rocksdb::Slice** keys, bool* may_match) const {
    constexpr int kChunk = 32;  // MultiGet batches are at most 32 keys.
    std::string_view views[kChunk];
    for (int base = 0; base < num_keys; base += kChunk) {
      const int n = std::min(kChunk, num_keys - base);
      for (int i = 0; i < n; ++i) {
        views[i] = std::string_view(keys[base + i]->data(), keys[base + i]->size());
      }
      reader_.MayMatchBatch({views, static_cast<size_t>(n)}, may_match + base);
    }
  }

  const FormatReader reader_;
};

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_ROCKSDB_BITS_READER_ADAPTER_H_

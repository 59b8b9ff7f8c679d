// rocksdb::FilterBitsReader over one of our encodings' readers.
//
// EncodingReader is an encoding's reader (filter/encoding_contract.h): single
// keys through MayMatch, MultiGet's keys through MayMatchEach, read where
// RocksDB holds them. It is immutable after construction, so one adapter is safe to share between
// threads. RocksDB destroys it after its last call returns (host_ordering.h tells TSan). Given a
// policy's FilterAnswers, it samples its queries' answers into them
// (table/census/filter_answers.h).
#ifndef SSTFILTER_TABLE_ROCKSDB_BITS_READER_ADAPTER_H_
#define SSTFILTER_TABLE_ROCKSDB_BITS_READER_ADAPTER_H_

#include <algorithm>
#include <memory>
#include <string_view>
#include <utility>

#include "table/census/filter_answers.h"
#include "table/rocksdb/host_ordering.h"
#include "table/rocksdb/rocksdb_internal.h"

namespace sstfilter {

template <typename EncodingReader>
class BitsReaderAdapter final : public rocksdb::FilterBitsReader {
 public:
  // The filter bytes must outlive the reader (RocksDB keeps the block pinned).
  // answers: where its sampled answers go; null: not counted.
  BitsReaderAdapter(const rocksdb::Slice& filter, std::shared_ptr<FilterAnswers> answers)
      : reader_(std::string_view(filter.data(), filter.size())), answers_(std::move(answers)) {}
  ~BitsReaderAdapter() override { host_ordering::DestroyBegins(this); }

  bool MayMatch(const rocksdb::Slice& key) override {
    const std::string_view view(key.data(), key.size());
    const bool may_match = reader_.MayMatch(view);
    if (answers_ != nullptr && FilterAnswers::SampleNext()) Sample(view, may_match);
    host_ordering::UseEnds(this);
    return may_match;
  }

  // MultiGet: RocksDB presets only may_match[0]; every entry is written here.
  void MayMatch(int num_keys, rocksdb::Slice** keys, bool* may_match) override {
    // The keys read where RocksDB holds them, without a copy into views.
    reader_.MayMatchEach(
        static_cast<size_t>(std::max(num_keys, 0)),
        [keys](size_t i) { return std::string_view(keys[i]->data(), keys[i]->size()); },
        may_match);
    if (answers_ != nullptr && num_keys > 0) {
      const auto n = static_cast<size_t>(num_keys);
      for (size_t i = FilterAnswers::QueriesBeforeSample(n); i < n;
           i += 1 + FilterAnswers::QueriesBeforeSample(n - i - 1)) {
        Sample(std::string_view(keys[i]->data(), keys[i]->size()), may_match[i]);
      }
    }
    host_ordering::UseEnds(this);
  }

 private:
  void Sample(std::string_view key, bool may_match) {
    answers_->Add(may_match, QueryControlKey(key, [this](std::string_view control) {
                    return reader_.MayMatch(control);
                  }));
  }

  const EncodingReader reader_;
  const std::shared_ptr<FilterAnswers> answers_;
};

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_ROCKSDB_BITS_READER_ADAPTER_H_

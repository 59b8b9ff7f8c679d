// Adapter for sstfilter's own encodings: any Builder/Reader pair shaped like
// LevelDbBloomBuilder / LevelDbBloomReader (filter/leveldb_bloom.h):
//   Builder(double bits_per_key); AddKey(string_view); Finish(std::string*)
//   Reader(string_view filter);   MayMatch(string_view) const;
//   MayMatchBatch(Span<const string_view>, bool*) const
// so each new encoding is one registration line in filter_kinds.cc.
#ifndef SSTFILTER_BENCH_SSTFILTER_ADAPTER_H_
#define SSTFILTER_BENCH_SSTFILTER_ADAPTER_H_

#include <memory>
#include <string>
#include <string_view>

#include "bench/bench_filter.h"

namespace sstfilter::bench {

// ExpectedFp(num_keys, filter_bytes, bits_per_key) -> the encoding's model.
using ExpectedFpFn = double (*)(size_t num_keys, size_t filter_bytes,
                                double bits_per_key);

template <typename Builder, typename Reader>
class SstfilterBenchFilter : public BenchFilter {
 public:
  SstfilterBenchFilter(double bits_per_key, ExpectedFpFn expected_fp)
      : builder_(bits_per_key), bits_per_key_(bits_per_key), expected_fp_(expected_fp) {}

  void Build(absl::Span<const std::string_view> keys, std::string* out) override {
    out->clear();  // Keeps the capacity: no allocation once warmed up.
    for (std::string_view key : keys) builder_.AddKey(key);
    builder_.Finish(out);
  }

  std::unique_ptr<BenchFilterReader> NewReader(std::string_view filter) const override {
    return std::make_unique<ReaderAdapter>(filter);
  }

  double ExpectedFpRate(size_t num_keys, size_t filter_bytes) const override {
    return expected_fp_(num_keys, filter_bytes, bits_per_key_);
  }

 private:
  class ReaderAdapter : public BenchFilterReader {
   public:
    explicit ReaderAdapter(std::string_view filter) : reader_(filter) {}
    bool MayMatch(std::string_view key) override { return reader_.MayMatch(key); }
    void MayMatchBatch(absl::Span<const std::string_view> keys, bool* out) override {
      reader_.MayMatchBatch(keys, out);
    }

   private:
    Reader reader_;
  };

  Builder builder_;
  double bits_per_key_;
  ExpectedFpFn expected_fp_;
};

}  // namespace sstfilter::bench

#endif  // SSTFILTER_BENCH_SSTFILTER_ADAPTER_H_

// BenchFilter over one of sstfilter's encodings (an encoding description E
// from filter/encodings.h: its Builder, Reader and FP model).
#ifndef SSTFILTER_BENCH_SSTFILTER_ADAPTER_H_
#define SSTFILTER_BENCH_SSTFILTER_ADAPTER_H_

#include <memory>
#include <string>
#include <string_view>

#include "bench/bench_filter.h"

namespace sstfilter::bench {

template <typename E>
class SstfilterBenchFilter : public BenchFilter {
 public:
  explicit SstfilterBenchFilter(double bits_per_key)
      : builder_(bits_per_key), bits_per_key_(bits_per_key) {}

  void Build(absl::Span<const std::string_view> keys, std::string* out) override {
    out->clear();  // Keeps the capacity: no allocation once warmed up.
    for (std::string_view key : keys) builder_.AddKey(key);
    builder_.Finish(out);
  }

  std::unique_ptr<BenchFilterReader> NewReader(std::string_view filter) const override {
    return std::make_unique<ReaderAdapter>(filter);
  }

  double ExpectedFpRate(size_t num_keys, size_t /*filter_bytes*/) const override {
    return E::kInfo.expected_fp_rate(num_keys, bits_per_key_);
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
    typename E::Reader reader_;
  };

  typename E::Builder builder_;
  double bits_per_key_;
};

}  // namespace sstfilter::bench

#endif  // SSTFILTER_BENCH_SSTFILTER_ADAPTER_H_

#include "bench/rocksdb_builtin_adapter.h"

#include <cassert>
#include <string>

#include "rocksdb/filter_policy.h"
#include "rocksdb/table.h"
#include "table/rocksdb/rocksdb_internal.h"

namespace sstfilter::bench {
namespace {

// BloomLikeFilterPolicy::Create accepts these class names to pin one
// implementation regardless of format_version (RocksDB's own test hook).
std::string ImplClassName(RocksDbBuiltin impl) {
  switch (impl) {
    case RocksDbBuiltin::kFastLocalBloom:
      return rocksdb::test::FastLocalBloomFilterPolicy::kClassName();
    case RocksDbBuiltin::kLegacyBloom:
      return rocksdb::test::LegacyBloomFilterPolicy::kClassName();
    case RocksDbBuiltin::kRibbon:
      return rocksdb::test::Standard128RibbonFilterPolicy::kClassName();
  }
  return "";
}

class RocksDbReader : public BenchFilterReader {
 public:
  explicit RocksDbReader(rocksdb::FilterBitsReader* reader) : reader_(reader) {}

  bool MayMatch(std::string_view key) override {
    return reader_->MayMatch(rocksdb::Slice(key.data(), key.size()));
  }

  // RocksDB's batched API takes an array of Slice pointers, as MultiGet has.
  void MayMatchBatch(absl::Span<const std::string_view> keys, bool* out) override {
    constexpr size_t kMaxBatch = 32;
    assert(keys.size() <= kMaxBatch);
    rocksdb::Slice slices[kMaxBatch];
    rocksdb::Slice* ptrs[kMaxBatch];
    for (size_t i = 0; i < keys.size(); ++i) {
      slices[i] = rocksdb::Slice(keys[i].data(), keys[i].size());
      ptrs[i] = &slices[i];
    }
    reader_->MayMatch(static_cast<int>(keys.size()), ptrs, out);
  }

 private:
  std::unique_ptr<rocksdb::FilterBitsReader> reader_;
};

class RocksDbBenchFilter : public BenchFilter {
 public:
  RocksDbBenchFilter(RocksDbBuiltin impl, double bits_per_key)
      : policy_(rocksdb::BloomLikeFilterPolicy::Create(ImplClassName(impl), bits_per_key)),
        table_options_(TableOptions()),
        context_(table_options_) {
    assert(policy_ != nullptr);
  }

  void Build(absl::Span<const std::string_view> keys, std::string* out) override {
    std::unique_ptr<rocksdb::FilterBitsBuilder> builder(
        policy_->GetBuilderWithContext(context_));
    for (std::string_view key : keys) {
      builder->AddKey(rocksdb::Slice(key.data(), key.size()));
    }
    std::unique_ptr<const char[]> buf;
    const rocksdb::Slice filter = builder->Finish(&buf);
    out->assign(filter.data(), filter.size());
  }

  std::unique_ptr<BenchFilterReader> NewReader(std::string_view filter) const override {
    return std::make_unique<RocksDbReader>(
        policy_->GetFilterBitsReader(rocksdb::Slice(filter.data(), filter.size())));
  }

  double ExpectedFpRate(size_t num_keys, size_t filter_bytes) const override {
    // Each built-in builder has its own model: on FilterBitsBuilder from
    // RocksDB 10.9, on BuiltinFilterBitsBuilder (every built-in) before.
    std::unique_ptr<rocksdb::FilterBitsBuilder> builder(
        policy_->GetBuilderWithContext(context_));
#if SSTFILTER_ROCKSDB_AT_LEAST(10, 9)
    return builder->EstimatedFpRate(num_keys, filter_bytes);
#else
    return static_cast<rocksdb::BuiltinFilterBitsBuilder*>(builder.get())
        ->EstimatedFpRate(num_keys, filter_bytes);
#endif
  }

 private:
  std::shared_ptr<const rocksdb::FilterPolicy> policy_;
  // Filters at the size the bits/key setting gives, as ours are built here:
  // RocksDB 9.2 turned optimize_filters_for_memory on by default, which
  // sizes filters to malloc's size classes and shares an FP credit between
  // them (bench/memory_sizing_report_main.cc measures that separately).
  static rocksdb::BlockBasedTableOptions TableOptions() {
    rocksdb::BlockBasedTableOptions options;  // Defaults: format_version 5.
    options.optimize_filters_for_memory = false;
    return options;
  }

  rocksdb::BlockBasedTableOptions table_options_;
  rocksdb::FilterBuildingContext context_;  // Refers to table_options_.
};

}  // namespace

std::unique_ptr<BenchFilter> NewRocksDbBenchFilter(RocksDbBuiltin impl,
                                                   double bits_per_key) {
  return std::make_unique<RocksDbBenchFilter>(impl, bits_per_key);
}

}  // namespace sstfilter::bench

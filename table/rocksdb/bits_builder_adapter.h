// rocksdb::FilterBitsBuilder over one of our encodings' builders.
//
// FormatBuilder and FormatReader are an encoding's Builder and Reader (see
// filter/encodings.h for what they provide).
//
// RocksDB's call order per SST (and per partition, reusing the builder):
//   (AddKey* Finish MaybePostVerify?)*   with ApproximateNumEntries any time.
#ifndef SSTFILTER_TABLE_ROCKSDB_BITS_BUILDER_ADAPTER_H_
#define SSTFILTER_TABLE_ROCKSDB_BITS_BUILDER_ADAPTER_H_

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "filter/bloom_options.h"
#include "table/rocksdb/rocksdb_internal.h"

namespace sstfilter {

template <typename FormatBuilder, typename FormatReader>
class BitsBuilderAdapter final : public rocksdb::FilterBitsBuilder {
 public:
  using Hash = typename FormatBuilder::Hash;

  // post_verify: keep the hashes of the last filter so MaybePostVerify can
  // re-probe them (BlockBasedTableOptions::detect_filter_construct_corruption).
  BitsBuilderAdapter(FormatBuilder builder, bool post_verify)
      : builder_(std::move(builder)), post_verify_(post_verify) {}

  // Adjacent duplicates (RocksDB passes them, e.g. a prefix shared by
  // consecutive keys) are skipped by hash: a key whose hash equals the
  // previous one sets exactly the same bits, so skipping it can never cause a
  // false negative, and it keeps the filter sized for distinct entries.
  void AddKey(const rocksdb::Slice& key) override {
    const Hash h = FormatBuilder::HashKey(std::string_view(key.data(), key.size()));
    if (builder_.NumEntries() > 0 && h == last_hash_) return;
    last_hash_ = h;
    builder_.AddHash(h);
  }

  size_t EstimateEntriesAdded() override { return builder_.NumEntries(); }

  using rocksdb::FilterBitsBuilder::Finish;
  rocksdb::Slice Finish(std::unique_ptr<const char[]>* buf) override {
    if (post_verify_) {
      verify_hashes_.clear();
      builder_.ForEachHash([this](Hash h) { verify_hashes_.push_back(h); });
    }
    const size_t size = builder_.FilterSize(builder_.NumEntries());
    std::unique_ptr<char[]> bytes(new char[size]);  // FinishInto writes every byte.
    builder_.FinishInto(bytes.get());  // Also resets the builder for the next partition.
    rocksdb::Slice result(bytes.get(), size);
    *buf = std::move(bytes);
    return result;
  }

  rocksdb::Status MaybePostVerify(const rocksdb::Slice& filter) override {
    if (!post_verify_) return rocksdb::Status::OK();
    const FormatReader reader(std::string_view(filter.data(), filter.size()));
    std::vector<Hash> hashes = std::move(verify_hashes_);
    verify_hashes_.clear();
    for (Hash h : hashes) {
      if (!reader.HashMayMatch(h)) {
        return rocksdb::Status::Corruption(absl::StrFormat(
            "%s: the finished filter (%d bytes) does not match "
            "key hash %#x it was built from",
            kBloomPolicyName, filter.size(), static_cast<unsigned long long>(h)));
      }
    }
    return rocksdb::Status::OK();
  }

  size_t ApproximateNumEntries(size_t bytes) override {
    return builder_.MaxEntriesForSize(bytes);
  }

 private:
  FormatBuilder builder_;
  const bool post_verify_;
  Hash last_hash_{};
  std::vector<Hash> verify_hashes_;
};

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_ROCKSDB_BITS_BUILDER_ADAPTER_H_

// rocksdb::FilterBitsBuilder over one of our encodings' builders.
//
// E is an encoding (filter/encodings.h); its Builder and Reader do the work.
//
// RocksDB's call order per SST (and per partition, reusing the builder):
//   ((AddKey | AddKeyAndAlt)* Finish MaybePostVerify?)*
// with ApproximateNumEntries (and, from 10.9, CalculateSpace) any time.
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

template <typename E>
class BitsBuilderAdapter final : public rocksdb::FilterBitsBuilder {
 public:
  using FormatBuilder = typename E::Builder;
  using FormatReader = typename E::Reader;
  using Hash = typename FormatBuilder::Hash;

  // post_verify: keep the hashes of the last filter so MaybePostVerify can
  // re-probe them (BlockBasedTableOptions::detect_filter_construct_corruption).
  BitsBuilderAdapter(FormatBuilder builder, bool post_verify)
      : builder_(std::move(builder)), post_verify_(post_verify) {}

  // Duplicates are skipped by hash (RocksDB passes repeated user keys, and
  // prefixes shared by consecutive keys): an entry whose hash equals one
  // already added sets exactly the same bits, so skipping it can never cause
  // a false negative, and it keeps the filter sized for distinct entries.
  // AddKey de-duplicates against the previous key only.
  void AddKey(const rocksdb::Slice& key) override {
    const Hash k = HashOf(key);
    if (!prev_key_.Is(k)) builder_.AddHash(k);
    prev_key_.Set(k);
    prev_alt_.Clear();
  }

  // A key and its prefix (RocksDB 9.6+ calls this with a prefix extractor and
  // whole-key filtering). Its contract: the key is de-duplicated against the
  // previous key and the previous alt, the alt against the previous alt, the
  // previous key and this key. Declared in every version, so the contract is
  // tested whichever RocksDB the tests run with.
  void AddKeyAndAlt(const rocksdb::Slice& key,
                    const rocksdb::Slice& alt) SSTFILTER_OVERRIDE_SINCE_ROCKSDB_9_6 {
    const Hash k = HashOf(key);
    const Hash a = HashOf(alt);
    if (!prev_key_.Is(k) && !prev_alt_.Is(k)) builder_.AddHash(k);
    if (a != k && !prev_alt_.Is(a) && !prev_key_.Is(a)) builder_.AddHash(a);
    prev_key_.Set(k);
    prev_alt_.Set(a);
  }

  // 0 if and only if nothing was added (RocksDB 9.6+ writes no filter for a
  // builder that says 0): every first entry after Finish is added.
  size_t EstimateEntriesAdded() override { return builder_.NumEntries(); }

  // RocksDB 10.9+ sizes tables with these; declared in every version.
  size_t CalculateSpace(size_t num_entries) SSTFILTER_OVERRIDE_SINCE_ROCKSDB_10_9 {
    return builder_.FilterSize(num_entries);
  }
  // The encoding's FP model for a filter of `bytes` holding num_entries.
  double EstimatedFpRate(size_t num_entries,
                         size_t bytes) SSTFILTER_OVERRIDE_SINCE_ROCKSDB_10_9 {
    return E::kInfo.sized_fp_rate(num_entries, bytes, builder_.bits_per_key());
  }

  using rocksdb::FilterBitsBuilder::Finish;
  rocksdb::Slice Finish(std::unique_ptr<const char[]>* buf) override {
    if (post_verify_) {
      verify_hashes_.clear();
      builder_.ForEachHash([this](Hash h) { verify_hashes_.push_back(h); });
    }
    const size_t size = builder_.FilterSize(builder_.NumEntries());
    std::unique_ptr<char[]> bytes(new char[size]);  // FinishInto writes every byte.
    builder_.FinishInto(bytes.get());  // Also resets the builder for the next partition.
    prev_key_.Clear();
    prev_alt_.Clear();
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
  // The hash of the previous key or alt, if there is one since Finish.
  class LastHash {
   public:
    bool Is(Hash h) const { return valid_ && h == hash_; }
    void Set(Hash h) { hash_ = h, valid_ = true; }
    void Clear() { valid_ = false; }

   private:
    Hash hash_{};
    bool valid_ = false;
  };

  static Hash HashOf(const rocksdb::Slice& s) {
    return FormatBuilder::HashKey(std::string_view(s.data(), s.size()));
  }

  FormatBuilder builder_;
  const bool post_verify_;
  LastHash prev_key_;
  LastHash prev_alt_;
  std::vector<Hash> verify_hashes_;
};

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_ROCKSDB_BITS_BUILDER_ADAPTER_H_

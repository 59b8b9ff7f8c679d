// rocksdb::FilterBitsBuilder over one of our encodings' builders.
//
// E is an encoding (filter/encodings.h); its Builder and Reader do the work.
//
// RocksDB's call order per SST (and per partition, reusing the builder):
//   ((AddKey | AddKeyAndAlt)* Finish MaybePostVerify?)*
// with ApproximateNumEntries (and, from 10.9, CalculateSpace) any time.
#ifndef SSTFILTER_TABLE_ROCKSDB_BITS_BUILDER_ADAPTER_H_
#define SSTFILTER_TABLE_ROCKSDB_BITS_BUILDER_ADAPTER_H_

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "filter/allocation/filter_keys.h"
#include "filter/filter_options.h"
#include "filter/memory_sizing.h"
#include "table/rocksdb/allocator_usable_size.h"
#include "table/rocksdb/rocksdb_internal.h"

namespace sstfilter {

template <typename E>
class BitsBuilderAdapter final : public rocksdb::FilterBitsBuilder {
 public:
  using EncodingBuilder = typename E::Builder;
  using EncodingReader = typename E::Reader;
  using Hash = typename EncodingBuilder::Hash;

  // post_verify: keep the hashes of the last filter so MaybePostVerify can
  // re-probe them (BlockBasedTableOptions::detect_filter_construct_corruption).
  // memory_credit: size filters to the allocator's size classes
  // (BlockBasedTableOptions::optimize_filters_for_memory), with the FP
  // credit of the policy, which outlives its builders; nullptr: the
  // encoding's own sizes.
  // setting: the setting of the filter, asked at each Finish (an FP
  // target's, filter/accuracy.h); empty: builder's setting. track_range:
  // the setting reads the filter's key range (FilterKeys), so AddKey keeps it.
  BitsBuilderAdapter(EncodingBuilder builder, bool post_verify, FpCredit* memory_credit = nullptr,
                     FilterSetting setting = nullptr, bool track_range = false)
      : builder_(std::move(builder)),
        post_verify_(post_verify),
        memory_credit_(memory_credit),
        setting_(std::move(setting)),
        track_range_(track_range && setting_ != nullptr) {}

  // Duplicates are skipped by hash (RocksDB passes repeated user keys, and
  // prefixes shared by consecutive keys): an entry whose hash equals one
  // already added sets exactly the same bits, so skipping it can never cause
  // a false negative, and it keeps the filter sized for distinct entries.
  // AddKey de-duplicates against the previous key only.
  void AddKey(const rocksdb::Slice& key) override {
    if (track_range_) range_.Add(std::string_view(key.data(), key.size()));
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
    if (track_range_) {
      range_.Add(std::string_view(key.data(), key.size()));
      range_.Add(std::string_view(alt.data(), alt.size()));
    }
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
    if (setting_) {
      FilterKeys keys;
      keys.entries = builder_.NumEntries();
      range_.MoveInto(&keys);
      const double bits_per_key = setting_(keys);
      if (bits_per_key != builder_.bits_per_key()) builder_.Retune(bits_per_key);
    }
    const Sizes sizes = ChooseSizes();
    std::unique_ptr<char[]> bytes(new char[sizes.allocation]);
    // Writes the filter's bytes; also resets the builder for the next partition.
    builder_.FinishInto(bytes.get(), sizes.filter);
    prev_key_.Clear();
    prev_alt_.Clear();
    rocksdb::Slice result(bytes.get(), sizes.filter);
    *buf = std::move(bytes);
    return result;
  }

  rocksdb::Status MaybePostVerify(const rocksdb::Slice& filter) override {
    if (!post_verify_) return rocksdb::Status::OK();
    const EncodingReader reader(std::string_view(filter.data(), filter.size()));
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

  struct Sizes {
    size_t filter;      // Bytes of the filter.
    size_t allocation;  // Bytes to allocate for it.
  };

  // The encoding's size; or, optimising for memory, a size that fills the
  // allocation RocksDB will hold the block in (filter/memory_sizing.h), and
  // a buffer of exactly that size class, so that this buffer too costs what
  // it holds (RocksDB's built-ins allocate theirs the same way).
  Sizes ChooseSizes() {
    if (memory_credit_ != nullptr && builder_.NumEntries() > 0) {
      const SizeChoice choice = ChooseBuiltFilterSize(builder_, AllocatorUsableSize,
                                                      kRocksDbBlockTrailerBytes, *memory_credit_);
      return {choice.filter_bytes, choice.allocation_bytes};
    }
    const size_t size = builder_.FinishSize();  // Builds a compact filter; may fall back.
    return {size, size};
  }

  static Hash HashOf(const rocksdb::Slice& s) {
    return EncodingBuilder::HashKey(std::string_view(s.data(), s.size()));
  }

  EncodingBuilder builder_;
  const bool post_verify_;
  FpCredit* const memory_credit_;
  const FilterSetting setting_;
  const bool track_range_;
  KeyRangeTracker range_;
  LastHash prev_key_;
  LastHash prev_alt_;
  std::vector<Hash> verify_hashes_;
};

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_ROCKSDB_BITS_BUILDER_ADAPTER_H_

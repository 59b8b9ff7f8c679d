// An append-only list of 64-bit key hashes in fixed 8 KiB blocks.
//
// Builders keep every key's hash until Finish. One growing vector would
// reallocate into fresh pages on every build, and those page faults cost
// more than hashing the keys; small blocks are recycled by malloc.
#ifndef SSTFILTER_FILTER_HASH_BLOCKS_H_
#define SSTFILTER_FILTER_HASH_BLOCKS_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace sstfilter {

class HashBlocks {
 public:
  static constexpr size_t kBlockHashes = 1024;

  void Add(uint64_t h) {
    if (size_ == blocks_.size() * kBlockHashes) {
      blocks_.push_back(std::make_unique<uint64_t[]>(kBlockHashes));
    }
    blocks_[size_ / kBlockHashes][size_ % kBlockHashes] = h;
    ++size_;
  }
  // Adds h unless it equals the last hash added; returns whether it did.
  // Builders add so: RocksDB hands them adjacent duplicates (a key and its
  // prefix, repeated user keys), which set no new bit but would inflate the
  // filter's size.
  bool AddUnlessRepeat(uint64_t h) {
    if (size_ > 0 && Back() == h) return false;
    Add(h);
    return true;
  }
  uint64_t At(size_t i) const { return blocks_[i / kBlockHashes][i % kBlockHashes]; }
  uint64_t Back() const { return At(size_ - 1); }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  // Calls visit(block, n) for each block of n consecutive hashes, in order.
  template <typename Visit>
  void ForEachBlock(Visit&& visit) const {
    for (size_t first = 0; first < size_; first += kBlockHashes) {
      const size_t n = size_ - first < kBlockHashes ? size_ - first : kBlockHashes;
      visit(static_cast<const uint64_t*>(blocks_[first / kBlockHashes].get()), n);
    }
  }
  template <typename Visit>
  void ForEach(Visit&& visit) const {
    ForEachBlock([&visit](const uint64_t* block, size_t n) {
      for (size_t i = 0; i < n; ++i) visit(block[i]);
    });
  }

  // Keeps the first n hashes; blocks stay allocated for reuse.
  // REQUIRES: n <= size().
  void Truncate(size_t n) { size_ = n; }
  void Set(size_t i, uint64_t h) { blocks_[i / kBlockHashes][i % kBlockHashes] = h; }
  // Empties the list and frees its blocks.
  void Release() {
    blocks_.clear();
    size_ = 0;
  }
  size_t AllocatedBytes() const { return blocks_.size() * kBlockHashes * sizeof(uint64_t); }

 private:
  std::vector<std::unique_ptr<uint64_t[]>> blocks_;
  size_t size_ = 0;
};

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_HASH_BLOCKS_H_

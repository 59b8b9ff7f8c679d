// Filters as a RocksDB block-based table reads them: a policy created from
// an option string ("sstfilter.bloom:10:cache_local", "bloomfilter:10:false"),
// filters built by its FilterBitsBuilder, queried through the
// FilterBitsReader its GetFilterBitsReader returns (the virtual calls a
// lookup makes), the filter bytes at the alignment a block cache gives.
//
// Many copies of one built filter stand for many filters of the same size
// (as bench/filter_copies.h): each copy has its own cache lines and pages.
// A block cache holds a filter block in memory from malloc: 16-byte
// aligned, its address mod 64 any multiple of 16. Each copy starts at such
// an address, its phase (address mod 64) drawn per copy, so a 64-byte line
// of a filter usually straddles two cache lines, as it does in a DB.
#ifndef SSTFILTER_BENCH_ROCKSDB_READER_SET_H_
#define SSTFILTER_BENCH_ROCKSDB_READER_SET_H_

#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "table/rocksdb/rocksdb_internal.h"

namespace sstfilter::bench {

// The policy an option string names, ours resolvable too (registers them).
// InvalidArgument when the string does not resolve to a filter policy.
absl::StatusOr<std::shared_ptr<const rocksdb::FilterPolicy>> PolicyFromString(
    const std::string& id);

class RocksDbReaderSet {
 public:
  // Builds one filter of keys (distinct) through policy, then copies it
  // until the copies total at least min_total_bytes (at least one copy),
  // each at an address that is a multiple of `alignment` (a power of two,
  // 1..64) with its phase mod 64 drawn from `seed`.
  static absl::StatusOr<std::unique_ptr<RocksDbReaderSet>> Create(
      const rocksdb::FilterPolicy& policy, absl::Span<const std::string_view> keys,
      size_t min_total_bytes, size_t alignment, uint64_t seed);

  size_t num_filters() const { return readers_.size(); }
  size_t filter_bytes() const { return filter_bytes_; }
  size_t total_bytes() const { return num_filters() * filter_bytes_; }
  rocksdb::FilterBitsReader& reader(size_t i) { return *readers_[i]; }
  // Where copy i's bytes start (tests check the alignment).
  const char* filter_data(size_t i) const { return starts_[i]; }

 private:
  RocksDbReaderSet() = default;
  struct Free {
    void operator()(char* p) const { std::free(p); }
  };
  size_t filter_bytes_ = 0;
  std::unique_ptr<char, Free> buffer_;
  std::vector<const char*> starts_;
  std::vector<std::unique_ptr<rocksdb::FilterBitsReader>> readers_;
};

}  // namespace sstfilter::bench

#endif  // SSTFILTER_BENCH_ROCKSDB_READER_SET_H_

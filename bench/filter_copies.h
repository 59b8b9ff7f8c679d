// Many copies of one filter, far larger in total than the last-level cache,
// for "random filter among many" queries whose probes miss the cache.
//
// Copies of one built filter behave like distinct filters of the same size
// for the memory system (each copy has its own cache lines and pages) and
// cost a memcpy instead of a build, so 256 MiB per implementation takes well under a
// second. Each copy starts on a 64-byte boundary, as RocksDB aligns filters.
#ifndef SSTFILTER_BENCH_FILTER_COPIES_H_
#define SSTFILTER_BENCH_FILTER_COPIES_H_

#include <cstdlib>
#include <memory>
#include <string_view>
#include <vector>

#include "bench/bench_filter.h"

namespace sstfilter::bench {

class FilterCopies {
 public:
  // Copies filter until the copies total at least min_total_bytes.
  FilterCopies(const BenchFilter& impl, std::string_view filter, size_t min_total_bytes);

  size_t num_copies() const { return readers_.size(); }
  size_t total_bytes() const { return num_copies() * filter_bytes_; }
  BenchFilterReader& reader(size_t i) { return *readers_[i]; }

 private:
  struct Free {
    void operator()(char* p) const { std::free(p); }
  };
  size_t filter_bytes_;
  std::unique_ptr<char, Free> buffer_;
  std::vector<std::unique_ptr<BenchFilterReader>> readers_;
};

}  // namespace sstfilter::bench

#endif  // SSTFILTER_BENCH_FILTER_COPIES_H_

// The micro bench's "ViaRocksDB" cases: our encodings and RocksDB's
// FastLocalBloom as a RocksDB Get / MultiGet meets them (rocksdb_reader_set.h:
// policies from option strings, FilterBitsReader's virtual MayMatch, filter
// bytes at a block cache's 16-byte alignment), with text keys of chosen
// lengths ('p' or 'a' then decimal digits: present and absent never equal).
//
//   ViaRocksDB/k<L>/InCache/{absent,present}           one filter of in_cache_keys
//   ViaRocksDB/k<L>/InCache/batch32/absent             RocksDB's batched MayMatch
//   ViaRocksDB/k<L>/OutOfCache/{absent,present}        a random filter per query
//   ViaRocksDB/k<L>/OutOfCache/batch32/{absent,present}
//                                                      a random filter per batch
//
// Every implementation's filter sets for one key length are alive together
// (about total_mib each), so the runs of one case interleave: per key
// length, `rounds` rounds of every case, each case's implementations back
// to back. The summary keeps the fastest round (ratio_reporter.h).
#ifndef SSTFILTER_BENCH_VIA_ROCKSDB_CASES_H_
#define SSTFILTER_BENCH_VIA_ROCKSDB_CASES_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace sstfilter::bench {

struct ViaRocksDbConfig {
  std::vector<std::string> impls;  // FilterImpl names with a policy id (PolicyIdOf).
  double bits_per_key = 10;
  std::vector<size_t> key_lengths;  // Each >= 8 and holding filter_keys distinct keys.
  size_t in_cache_keys = 10000;
  size_t filter_keys = 100000;  // Keys per out-of-cache filter.
  size_t total_mib = 320;       // Out-of-cache filter bytes per implementation.
  size_t alignment = 16;        // Of filter bytes (rocksdb_reader_set.h).
  int rounds = 12;
  double min_time = 0.05;  // Per round.
  // Called before the cases build their sets: frees the bench's other big sets.
  std::function<void()> release_other_sets;
};

// The option string RocksDB resolves to an implementation's policy:
// sstfilter.bloom:<bpk>:<encoding> for ours, bloomfilter:<bpk>:false for
// FastLocalBloom; NotFound for implementations RocksDB cannot name.
absl::StatusOr<std::string> PolicyIdOf(const std::string& impl, double bits_per_key);

// Checks the config (InvalidArgument naming the bad value), then registers
// the cases in run order. Returns a line describing the setup, for the summary.
absl::StatusOr<std::string> RegisterViaRocksDbCases(const ViaRocksDbConfig& config);

// Frees the cases' filter sets (before another case builds its own).
void ReleaseViaRocksDbSets();

}  // namespace sstfilter::bench

#endif  // SSTFILTER_BENCH_VIA_ROCKSDB_CASES_H_

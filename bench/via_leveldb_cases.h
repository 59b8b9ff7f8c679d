// The micro bench's "ViaLevelDB" cases: one KeyMayMatch as LevelDB's
// FilterBlockReader asks it, through leveldb::FilterPolicy's virtual
// KeyMayMatch(Slice key, Slice filter), which gets the filter's bytes and
// nothing parsed. Every query reads the filter afresh; that per-query cost
// is what these cases show, beside LevelDB's built-in policy
// (leveldb::NewBloomFilterPolicy, which parses k and the length each time).
//
//   ViaLevelDB/n<N>/{present,absent}/<impl>
//
// impl: kLibLevelDbImpl (the built-in policy), or sst_<encoding> (our
// LevelDB policy writing that encoding, table/leveldb/). 16-byte random keys
// (KeyShape::kRandom16). Filters of N keys: for small N many of them, 8192
// keys' worth (about 10 KB, back to back as in a LevelDB filter block; the
// hot filters of a table), from 8192 keys on a single filter. Each case asks
// a plan of 512 queries, one drawn at random per iteration: a random filter
// and a random key of it (present) or a key of no filter (absent). The
// plan's keys take 8 KB, so the harness costs every implementation the same
// few ns and no cache misses of its own.
//
// Each key count's sets of every implementation are alive together and the
// cases run in `rounds` interleaved rounds (every case's implementations
// back to back); the summary keeps each case's fastest round and prints the
// time / libleveldb (ratio_reporter.h).
#ifndef SSTFILTER_BENCH_VIA_LEVELDB_CASES_H_
#define SSTFILTER_BENCH_VIA_LEVELDB_CASES_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace sstfilter::bench {

struct ViaLevelDbConfig {
  std::vector<std::string> impls;  // libleveldb and OurImplNames() only.
  double bits_per_key = 10;        // libleveldb takes it rounded.
  std::vector<size_t> num_keys = {32, 100, 10000, 1000000};  // Keys per filter.
  int rounds = 5;
  double min_time = 0.05;  // Per round.
};

// Whether impl has a LevelDB policy here (libleveldb or one of ours).
bool HasLevelDbPolicy(const std::string& impl);
// Every implementation with a LevelDB policy: libleveldb, then OurImplNames().
std::vector<std::string> DefaultViaLevelDbImpls();

// Checks the config (InvalidArgument naming the bad value), then registers
// the cases in run order. Returns a line describing the setup, for the
// summary ("" when there are no cases).
absl::StatusOr<std::string> RegisterViaLevelDbCases(const ViaLevelDbConfig& config);

}  // namespace sstfilter::bench

#endif  // SSTFILTER_BENCH_VIA_LEVELDB_CASES_H_

// The crash test's verifier: reopens the DB after a kill (WAL recovery),
// then asks for every step's key and its hole (key_scheme.h) by Get, and
// again by MultiGet, and reads RocksDB's statistics to prove the filters
// answered.
//
// Invariants after any crash of a writer using synced writes:
//   - every acknowledged step (< the progress record) is present with its
//     value ("lost" and "bad values" otherwise);
//   - no hole is ever found ("phantoms");
//   - the present steps form a prefix: nothing is present past the first
//     absent step ("gaps": a later write survived an earlier one);
//   - Get and MultiGet agree on every key;
//   - the filters were consulted and ruled files out (RocksDB's
//     BLOOM_FILTER_USEFUL > 0 for both paths) once there are enough keys.
#ifndef SSTFILTER_TESTS_CRASH_CRASH_VERIFY_H_
#define SSTFILTER_TESTS_CRASH_CRASH_VERIFY_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"

namespace sstfilter::crash {

struct VerifyConfig {
  std::string db;
  std::string progress;
  std::string table_options;  // Need not be the writer's: readers read every encoding.
};

struct VerifyResult {
  uint64_t acknowledged = 0;  // From the progress record.
  uint64_t present = 0;       // Length of the present prefix of steps.
  uint64_t checked_steps = 0; // Steps asked for (each: its key and its hole).
  uint64_t lost = 0;
  uint64_t bad_values = 0;
  uint64_t phantoms = 0;
  uint64_t gaps = 0;
  uint64_t disagreements = 0;  // Keys where Get and MultiGet differ.
  uint64_t filter_useful_get = 0;
  uint64_t filter_useful_multiget = 0;
  uint64_t sst_files = 0;
  bool filter_check_applies = false;  // Enough keys that filters must have helped.

  bool Passed() const;
  // One line, "key=value" pairs; crash_test.sh parses it.
  std::string Summary() const;
};

// An error only when the DB cannot be opened or read at all.
absl::StatusOr<VerifyResult> RunVerifier(const VerifyConfig& config);

}  // namespace sstfilter::crash

#endif  // SSTFILTER_TESTS_CRASH_CRASH_VERIFY_H_

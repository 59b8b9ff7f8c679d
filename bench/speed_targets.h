// The speed targets of each of our encodings in the micro benchmarks, held
// against RocksDB's filters (the summary of ratio_reporter.h reads them).
// Declared per encoding, by its EncodingId, in speed_targets.cc: an encoding
// with no entry there has no target, and the summary says so ("no target")
// beside its measured ratios; it is never held to another encoding's.
//
// The reference (the first implementation, LevelDB's encoding) has its own
// targets against libleveldb, printed first (RatioReporter::PrintTargets).
#ifndef SSTFILTER_BENCH_SPEED_TARGETS_H_
#define SSTFILTER_BENCH_SPEED_TARGETS_H_

#include <vector>

#include "filter/encoding_id.h"

namespace sstfilter::bench {

// Most time / the peer's one encoding may take in one case.
struct CaseTarget {
  const char* case_name;  // As the micro benchmarks name it ("InCache/absent").
  double max_ratio;
};

struct SpeedTargets {
  EncodingId encoding;
  // Time / RocksDB's FastLocalBloom, case by case.
  std::vector<CaseTarget> versus_fast_local_bloom;
  // The ViaRocksDB cases (through RocksDB's reader, via_rocksdb_cases.h),
  // time / FastLocalBloom at most: single queries out of cache, and every
  // other case. 0: none (a case that ran is reported with no target).
  double via_rocksdb_out_of_cache_single = 0;
  double via_rocksdb_other = 0;
  // Faster than RocksDB's Standard128Ribbon in every case both ran.
  bool faster_than_ribbon = false;
};

// The targets declared for encoding, or nullptr when it has none.
const SpeedTargets* SpeedTargetsFor(EncodingId encoding);
// Every declaration, in EncodingId order.
const std::vector<SpeedTargets>& AllSpeedTargets();

}  // namespace sstfilter::bench

#endif  // SSTFILTER_BENCH_SPEED_TARGETS_H_

#include "bench/speed_targets.h"

namespace sstfilter::bench {
namespace {

// The cases the targets against FastLocalBloom name, each at one of the
// limits given (in cache, out of cache; one by one, batched; build).
std::vector<CaseTarget> VersusFastLocalBloom(double in_cache, double in_cache_batched,
                                             double out_of_cache, double out_of_cache_batched,
                                             double build) {
  return {{"InCache/present", in_cache},
          {"InCache/absent", in_cache},
          {"InCache/batch8/batched", in_cache_batched},
          {"InCache/batch32/batched", in_cache_batched},
          {"OutOfCache/present", out_of_cache},
          {"OutOfCache/absent", out_of_cache},
          {"OutOfCache/batch8/batched", out_of_cache_batched},
          {"OutOfCache/batch16/batched", out_of_cache_batched},
          {"OutOfCache/batch32/batched", out_of_cache_batched},
          {"Build", build}};
}

std::vector<SpeedTargets> Declare() {
  std::vector<SpeedTargets> all;
  // cache_local: faster than FastLocalBloom everywhere, through RocksDB's
  // reader too (single out-of-cache queries at most as fast).
  {
    SpeedTargets t{EncodingId::kCacheLocal, VersusFastLocalBloom(0.8, 0.8, 1.0, 0.8, 1.0)};
    t.via_rocksdb_out_of_cache_single = 1.0;
    t.via_rocksdb_other = 0.8;
    all.push_back(t);
  }
  // compact, for a filter that spends about a quarter less memory: in
  // cache 1.2x single and 1.0x batched, out of cache 1.3x single and 1.0x
  // batched, build 2.0x; and faster than Ribbon, the memory-efficient peer.
  {
    SpeedTargets t{EncodingId::kCompact, VersusFastLocalBloom(1.2, 1.0, 1.3, 1.0, 2.0)};
    t.faster_than_ribbon = true;
    all.push_back(t);
  }
  // banded, for the memory of compact at one random access a key: in cache
  // 1.2x single and 1.0x batched, out of cache 1.2x single and 1.0x
  // batched, build 2.0x; and faster than Ribbon.
  {
    SpeedTargets t{EncodingId::kBanded, VersusFastLocalBloom(1.2, 1.0, 1.2, 1.0, 2.0)};
    t.faster_than_ribbon = true;
    all.push_back(t);
  }
  return all;
}

}  // namespace

const std::vector<SpeedTargets>& AllSpeedTargets() {
  static const auto* all = new std::vector<SpeedTargets>(Declare());
  return *all;
}

const SpeedTargets* SpeedTargetsFor(EncodingId encoding) {
  for (const SpeedTargets& t : AllSpeedTargets()) {
    if (t.encoding == encoding) return &t;
  }
  return nullptr;
}

}  // namespace sstfilter::bench

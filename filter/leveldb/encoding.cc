// kLevelDbEncodingInfo: the LevelDB-compatible encoding as encodings.h lists it.
#include "filter/leveldb/bloom.h"

#include "absl/base/attributes.h"
#include "absl/strings/str_format.h"
#include "filter/bloom_math.h"
#include "filter/leveldb/kernels.h"

namespace sstfilter {

namespace {

// The entries of its EncodingInfo, named apart from the other encodings'
// (a unity build compiles them as one source).
namespace leveldb_entries {

FilterDescription Describe(std::string_view filter) {
  const LevelDbBloomReader r(filter);
  if (r.state() == FilterState::kMatchNothing) {
    return FilterDescription::Fixed(r.state(), "empty (matches nothing)");
  }
  if (r.state() == FilterState::kMatchEverything) {
    return FilterDescription::Fixed(r.state(), "damaged (k=0; reads as may-match)");
  }
  // The filter's own bits and k: small filters are padded to 64 bits.
  const auto bits = static_cast<double>(r.num_bits());
  return FilterDescription::Probed(
      absl::StrFormat("leveldb k=%d", r.num_probes()), r.num_probes(), bits,
      [bits, k = r.num_probes()](double n) { return LevelDbFilterFpRate(n, bits, k); });
}

double SizedFpRate(size_t num_keys, size_t bytes, double bits_per_key) {
  if (bytes < 2) return num_keys == 0 ? 0.0 : 1.0;
  return LevelDbFilterFpRate(static_cast<double>(num_keys), 8.0 * static_cast<double>(bytes - 1),
                             LevelDbNumProbes(bits_per_key));
}

// The two parts of the FP model: the Bloom bits, and the 32-bit hash.
PlanDetails Details(size_t num_keys, double bits_per_key) {
  const auto n = static_cast<double>(num_keys);
  const auto bits = static_cast<double>(LevelDbFilterBits(num_keys, bits_per_key));
  const double bloom =
      StandardBloomFpRate(n, LevelDbReachableBits(bits), LevelDbNumProbes(bits_per_key));
  PlanDetails details;
  details.fp_parts = {{"  standard bloom", absl::StrFormat("%.6g", bloom)},
                      {"  32-bit hash", absl::StrFormat("%.6g", Hash32CollisionRate(n))}};
  return details;
}

std::string Kernels() { return "scalar"; }

}  // namespace leveldb_entries
}  // namespace

ABSL_CONST_INIT const EncodingInfo kLevelDbEncodingInfo = {
    "leveldb",
    "sstfilter LevelDB-compatible Bloom",
    /*tag=*/0,
    LevelDbBloomReader::Recognises,
    LevelDbExpectedFpRate,
    leveldb_entries::SizedFpRate,
    leveldb_entries::Describe,
    leveldb_entries::Details,
    leveldb_entries::Kernels};

}  // namespace sstfilter

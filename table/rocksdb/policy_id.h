// The id of the Bloom policy in RocksDB option strings, and its parsing.
//
//   sstfilter.bloom                      (defaults; options may follow in a map)
//   sstfilter.bloom:<bits_per_key>
//   sstfilter.bloom:<bits_per_key>:<format>
//
// BloomPolicyId is what GetId() returns, so a saved OPTIONS file reloads to
// an equal policy: ParseBloomPolicyId(BloomPolicyId(o)) == o.
#ifndef SSTFILTER_TABLE_ROCKSDB_POLICY_ID_H_
#define SSTFILTER_TABLE_ROCKSDB_POLICY_ID_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "filter/bloom_format.h"

namespace sstfilter {

inline constexpr char kRocksDbBloomPolicyName[] = "sstfilter.bloom";

// The resolved configuration a RocksDB-hosted policy carries.
struct BloomPolicyConfig {
  double bits_per_key = 10.0;
  BloomFormat format = BloomFormat::kLevelDb;
};

absl::StatusOr<BloomPolicyConfig> ParseBloomPolicyId(std::string_view id);
std::string BloomPolicyId(const BloomPolicyConfig& config);

// Strict parsers for one option value; errors name the option and the value.
absl::StatusOr<double> ParseBitsPerKeyValue(std::string_view value);
absl::StatusOr<BloomFormat> ParseFormatValue(std::string_view value);

// Shortest decimal that reads back as exactly the same double.
std::string FormatBitsPerKey(double bits_per_key);

}  // namespace sstfilter

#endif  // SSTFILTER_TABLE_ROCKSDB_POLICY_ID_H_

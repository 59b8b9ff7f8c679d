#include "tools/builtin_filter.h"

#include <cmath>
#include <cstdint>

#include "absl/strings/str_format.h"
#include "filter/cache_local/math.h"

namespace sstfilter {

namespace {

constexpr size_t kMetadataBytes = 5;
constexpr double kBlockBits = 512;
constexpr double kRibbonSlotsPerBlock = 128;

uint8_t Byte(std::string_view filter, size_t from_end) {
  return static_cast<uint8_t>(filter[filter.size() - from_end]);
}

FilterDescription MatchEverything(std::string_view why) {
  return FilterDescription::Fixed(FilterState::kMatchEverything,
                                  absl::StrFormat("built-in, %s (reads as may-match)", why));
}

FilterDescription FastLocalBloom(std::string_view filter) {
  const size_t data_bytes = filter.size() - kMetadataBytes;
  const int k = Byte(filter, 3) & 31;
  const int log2_block_bytes = ((Byte(filter, 3) >> 5) & 7) + 6;
  if (Byte(filter, 4) != 0 || log2_block_bytes != 6 || k < 1 || k > 30 || Byte(filter, 2) != 0 ||
      Byte(filter, 1) != 0 || data_bytes % 64 != 0) {
    return MatchEverything("unknown Bloom variant");
  }
  const double blocks = static_cast<double>(data_bytes / 64);
  return FilterDescription::Probed(
      absl::StrFormat("RocksDB FastLocalBloom k=%d", k), k, blocks * kBlockBits,
      [blocks, k](double n) { return BlockedBloomFpRate(n / blocks, k); });
}

FilterDescription Ribbon(std::string_view filter) {
  const double data_bits = 8.0 * static_cast<double>(filter.size() - kMetadataBytes);
  const uint32_t blocks = Byte(filter, 3) | (Byte(filter, 2) << 8) | (Byte(filter, 1) << 16);
  if (blocks < 2) return MatchEverything("Ribbon of fewer than 2 blocks");
  const double slots = blocks * kRibbonSlotsPerBlock;
  const double r = std::floor(data_bits / slots);
  // Blocks of r + 1 columns: the bits left over from r columns everywhere.
  const double wide = (data_bits - r * slots) / kRibbonSlotsPerBlock / blocks;
  const double fp = (1 - wide) * std::exp2(-r) + wide * std::exp2(-r - 1);
  return FilterDescription::Probed(absl::StrFormat("RocksDB Ribbon %.2f bits/slot", data_bits / slots),
                                   0, data_bits, [fp](double) { return fp; });
}

FilterDescription LegacyBloom(std::string_view filter, int k) {
  const uint64_t data_bytes = filter.size() - kMetadataBytes;
  const uint32_t lines = Byte(filter, 4) | (Byte(filter, 3) << 8) | (Byte(filter, 2) << 16) |
                         (uint32_t{Byte(filter, 1)} << 24);
  if (lines == 0 || data_bytes % lines != 0 || (data_bytes / lines & (data_bytes / lines - 1))) {
    return MatchEverything("legacy Bloom with a line count that does not divide it");
  }
  const double line_bits = 8.0 * static_cast<double>(data_bytes / lines);
  return FilterDescription::Probed(
      absl::StrFormat("RocksDB legacy Bloom k=%d", k), k, 8.0 * static_cast<double>(data_bytes),
      [lines, line_bits, k](double n) {
        // BlockedBloomFpRate is for 512-bit lines: scale the load to them.
        const double load = n / lines * kBlockBits / line_bits;
        return std::min(1.0, BlockedBloomFpRate(load, k) + n / std::exp2(32));
      });
}

}  // namespace

bool IsRocksDbRibbonFilter(std::string_view filter) {
  return filter.size() > kMetadataBytes && static_cast<int8_t>(Byte(filter, 5)) == -2;
}

FilterDescription DescribeRocksDbBuiltinFilter(std::string_view filter) {
  if (filter.size() <= kMetadataBytes) {
    return FilterDescription::Fixed(FilterState::kMatchNothing, "built-in, empty (matches nothing)");
  }
  const auto marker = static_cast<int8_t>(Byte(filter, 5));
  if (marker == -1) return FastLocalBloom(filter);
  if (marker == -2) return Ribbon(filter);
  if (marker >= 1 && marker <= 30) return LegacyBloom(filter, marker);
  return MatchEverything(absl::StrFormat("marker %d", marker));
}

}  // namespace sstfilter

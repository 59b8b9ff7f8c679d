#include "inspect/compression_name.h"

#include <algorithm>
#include <optional>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_format.h"

namespace sstfilter {

namespace {

// RocksDB's compression types (its CompressionType, a byte on disk).
constexpr uint8_t kNoCompressionType = 0x00;
constexpr uint8_t kLastBuiltinCompressionType = 0x07;  // ZSTD
constexpr uint8_t kZstdNotFinalType = 0x40;  // Read before format_version 7 only.
constexpr uint8_t kFirstCustomCompressionType = 0x80;
constexpr uint8_t kDisableCompressionOption = 0xff;  // Never a block's type.

std::string CompressionTypeName(uint8_t type) {
  static constexpr const char* kBuiltin[] = {"none", "Snappy", "Zlib", "BZip2",
                                             "LZ4",  "LZ4HC",  "Xpress", "ZSTD"};
  if (type <= kLastBuiltinCompressionType) return kBuiltin[type];
  return absl::StrFormat("%s%02X", type >= kFirstCustomCompressionType ? "Custom" : "Reserved",
                         type);
}

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

// The types field (`hex`, two hex digits a type) into *types; on a bad
// field, what is wrong with it.
std::optional<std::string> ParseTypeList(std::string_view hex, std::vector<uint8_t>* types) {
  if (hex.size() % 2 != 0) return "an odd number of hex digits in the compression types";
  for (size_t i = 0; i < hex.size(); i += 2) {
    const int high = HexDigit(hex[i]), low = HexDigit(hex[i + 1]);
    if (high < 0 || low < 0) return "a compression type that is not two hex digits";
    const auto type = static_cast<uint8_t>(high * 16 + low);
    if (type == kNoCompressionType || type == kDisableCompressionOption) {
      return absl::StrFormat("compression type %02X cannot be listed", type);
    }
    types->push_back(type);
  }
  return std::nullopt;
}

}  // namespace

absl::StatusOr<CompressionName> ParseCompressionName(std::string_view value,
                                                     uint32_t format_version) {
  CompressionName result;
  if (format_version < 7) {
    result.legacy_name = std::string(value);
    return result;
  }
  auto bad = [&](std::string_view why) {
    return absl::DataLossError(absl::StrFormat(
        "table property '%s' = '%s' (format_version %d): %s", kCompressionNameProperty,
        absl::CHexEscape(absl::string_view(value.data(), value.size())), format_version, why));
  };
  const size_t name_end = value.find(';');
  if (name_end == std::string_view::npos) {
    return bad("no ';' after the compression manager's name");
  }
  result.has_fields = true;
  result.manager = std::string(value.substr(0, name_end));
  const std::string_view rest = value.substr(name_end + 1);
  const size_t types_end = rest.find(';');
  if (types_end == std::string_view::npos) return bad("no ';' after the compression types");
  if (std::optional<std::string> why = ParseTypeList(rest.substr(0, types_end), &result.types)) {
    return bad(*why);
  }
  // Fields after the types are for future use; RocksDB ignores them.
  return result;
}

bool CompressionName::AllowsBlockType(uint8_t type) const {
  if (type == kNoCompressionType) return true;
  if (has_fields) return std::find(types.begin(), types.end(), type) != types.end();
  return type <= kLastBuiltinCompressionType || type == kZstdNotFinalType;
}

std::string CompressionName::ToString() const {
  if (!has_fields) return legacy_name.empty() ? "(not recorded)" : legacy_name;
  std::string out;
  for (uint8_t t : types) {
    if (!out.empty()) out += ", ";
    out += CompressionTypeName(t);
  }
  if (out.empty()) out = "none";
  if (!manager.empty()) absl::StrAppendFormat(&out, " (compression manager '%s')", manager);
  return out;
}

}  // namespace sstfilter

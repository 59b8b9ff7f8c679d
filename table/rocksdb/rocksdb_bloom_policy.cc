#include "table/rocksdb/rocksdb_bloom_policy.h"

#include <cstddef>
#include <string>
#include <type_traits>
#include <unordered_map>

#include "absl/strings/str_format.h"
#include "filter/encodings.h"
#include "rocksdb/utilities/options_type.h"
#include "table/rocksdb/bits_builder_adapter.h"
#include "table/rocksdb/bits_reader_factory.h"
#include "table/rocksdb/rocksdb_internal.h"

namespace sstfilter {

namespace {

rocksdb::Status ToRocksDb(const absl::Status& status) {
  return rocksdb::Status::InvalidArgument(std::string(status.message()));
}

// An option of type T, parsed strictly by `parse` (so a bad value is an
// error naming it; RocksDB's own double parsing accepts "10abc") and written
// back by `format` in a form `parse` reads to the same value.
template <typename T>
rocksdb::OptionTypeInfo StrictOption(int offset,
                                     absl::StatusOr<T> (*parse)(std::string_view),
                                     std::string (*format)(const T&)) {
  return rocksdb::OptionTypeInfo(
      offset, rocksdb::OptionType::kUnknown, rocksdb::OptionVerificationType::kNormal,
      rocksdb::OptionTypeFlags::kNone,
      [parse](const rocksdb::ConfigOptions&, const std::string&, const std::string& value,
              void* addr) {
        absl::StatusOr<T> parsed = parse(value);
        if (!parsed.ok()) return ToRocksDb(parsed.status());
        *static_cast<T*>(addr) = *parsed;
        return rocksdb::Status::OK();
      },
      [format](const rocksdb::ConfigOptions&, const std::string&, const void* addr,
               std::string* value) {
        *value = format(*static_cast<const T*>(addr));
        return rocksdb::Status::OK();
      },
      [](const rocksdb::ConfigOptions&, const std::string&, const void* a, const void* b,
         std::string*) { return *static_cast<const T*>(a) == *static_cast<const T*>(b); });
}

std::string FormatBits(const double& bits_per_key) { return FormatBitsPerKey(bits_per_key); }
std::string FormatFormat(const FilterFormat& format) {
  return std::string(FormatName(format));
}

// RegisterOptions addresses the fields by offset.
static_assert(std::is_standard_layout_v<BloomOptions>, "offsetof needs a standard layout");

// bits_per_key and format, the options of "{id=sstfilter.bloom;...}".
const std::unordered_map<std::string, rocksdb::OptionTypeInfo>& OptionInfo() {
  static const auto* const kInfo = new std::unordered_map<std::string, rocksdb::OptionTypeInfo>{
      {"bits_per_key", StrictOption<double>(offsetof(BloomOptions, bits_per_key),
                                            ParseBitsPerKeyValue, FormatBits)},
      {"format", StrictOption<FilterFormat>(offsetof(BloomOptions, format),
                                            ParseFormatValue, FormatFormat)},
  };
  return *kInfo;
}

class RocksDbBloomPolicy final : public rocksdb::FilterPolicy {
 public:
  // REQUIRES: options resolved (ResolveBloomOptions). The options object
  // RocksDB configures ("{id=...;bits_per_key=...}") is options_ itself.
  explicit RocksDbBloomPolicy(const BloomOptions& options) : options_(options) {
    RegisterOptions("BloomOptions", &options_, &OptionInfo());
  }

  static const char* kClassName() { return kBloomPolicyName; }
  const char* Name() const override { return kClassName(); }
  // Filters are ours whatever the format: the reader dispatches on the tag.
  const char* CompatibilityName() const override { return kBloomPolicyName; }
  // Derived from the options, so a saved OPTIONS file reloads to this policy.
  std::string GetId() const override { return BloomPolicyId(options_); }

  rocksdb::FilterBitsBuilder* GetBuilderWithContext(
      const rocksdb::FilterBuildingContext& context) const override {
    const bool post_verify = context.table_options.detect_filter_construct_corruption;
    return VisitEncoding(options_.format, [&](auto encoding) -> rocksdb::FilterBitsBuilder* {
      using E = decltype(encoding);
      return new BitsBuilderAdapter<E>(
          typename E::Builder(options_.bits_per_key), post_verify);
    });
  }

  // Names an unknown option itself: RocksDB's own message for it, seen
  // through filter_policy, only says "Could not find option: : filter_policy".
  rocksdb::Status ConfigureOptions(
      const rocksdb::ConfigOptions& config_options,
      const std::unordered_map<std::string, std::string>& options,
      std::unordered_map<std::string, std::string>* unused) override {
    if (!config_options.ignore_unknown_options) {
      for (const auto& [name, value] : options) {
        if (name != rocksdb::OptionTypeInfo::kIdPropName() &&
            OptionInfo().count(name) == 0) {
          return rocksdb::Status::InvalidArgument(absl::StrFormat(
              "%s: unknown option '%s' (value '%s'); expected bits_per_key or format",
              kBloomPolicyName, name, value));
        }
      }
    }
    return rocksdb::FilterPolicy::ConfigureOptions(config_options, options, unused);
  }

  rocksdb::FilterBitsReader* GetFilterBitsReader(
      const rocksdb::Slice& contents) const override {
    return NewBitsReader(contents);
  }

 private:
  BloomOptions options_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<rocksdb::FilterPolicy>> NewRocksDbBloomPolicy(
    const BloomOptions& options) {
  absl::StatusOr<BloomOptions> resolved = ResolveBloomOptions(options);
  if (!resolved.ok()) return resolved.status();
  return std::make_unique<RocksDbBloomPolicy>(*resolved);
}

}  // namespace sstfilter

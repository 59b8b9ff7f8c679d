// A test helper: one value read as RocksDB's option map reads it, through
// the option table (filter/option_fields.h).
#ifndef SSTFILTER_TESTS_OPTION_FIELD_PARSE_H_
#define SSTFILTER_TESTS_OPTION_FIELD_PARSE_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "filter/filter_options.h"
#include "filter/option_fields.h"

namespace sstfilter {
namespace testing {

// `value` read into default options by the field `name` of the option
// table, as RocksDB's option map reads it.
inline absl::StatusOr<FilterOptions> ParseField(std::string_view name, std::string_view value) {
  const OptionField* field = FindOptionField(name);
  if (field == nullptr) return absl::NotFoundError(std::string(name));
  FilterOptions options;
  if (absl::Status s = field->parse(value, &options); !s.ok()) return s;
  return options;
}

}  // namespace testing
}  // namespace sstfilter

#endif  // SSTFILTER_TESTS_OPTION_FIELD_PARSE_H_

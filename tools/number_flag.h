// A number-valued flag of the tools, parsed as option strings parse numbers
// (ParsePlainNumber, filter/filter_options.h): Abseil's double flags also
// take "0x10" (as 16), "+1" and spaces, which no user means. The text is
// kept, so that a message names the value as given ("--hit_share=1.0000001",
// not the "1" of %g).
#ifndef SSTFILTER_TOOLS_NUMBER_FLAG_H_
#define SSTFILTER_TOOLS_NUMBER_FLAG_H_

#include <optional>
#include <string>

#include "absl/strings/string_view.h"

namespace sstfilter {

struct NumberFlag {
  std::optional<double> value;  // nullopt: not given.
  std::string text;             // As given.
};

// Abseil's hooks for a flag of this type.
bool AbslParseFlag(absl::string_view text, NumberFlag* flag, std::string* error);
std::string AbslUnparseFlag(const NumberFlag& flag);

}  // namespace sstfilter

#endif  // SSTFILTER_TOOLS_NUMBER_FLAG_H_

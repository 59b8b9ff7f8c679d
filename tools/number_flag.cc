#include "tools/number_flag.h"

#include <string_view>

#include "filter/filter_options.h"

namespace sstfilter {

bool AbslParseFlag(absl::string_view text, NumberFlag* flag, std::string* error) {
  if (text.empty()) {  // Not given (the default's text).
    *flag = NumberFlag{};
    return true;
  }
  const std::optional<double> value = ParsePlainNumber(std::string_view(text.data(), text.size()));
  if (!value.has_value()) {
    *error = "not a plain decimal number (digits, an optional '-', fraction and exponent)";
    return false;
  }
  *flag = NumberFlag{value, std::string(text)};
  return true;
}

std::string AbslUnparseFlag(const NumberFlag& flag) { return flag.text; }

}  // namespace sstfilter

// The text of one option value, as option strings, RocksDB's option maps
// and the tools' flags write it: plain decimal numbers, the shortest
// decimal that reads back exactly, and the message that names a bad value.
// The option table (option_fields.h) and the ids (filter_options.h) read
// and write values through these.
#ifndef SSTFILTER_FILTER_OPTION_VALUES_H_
#define SSTFILTER_FILTER_OPTION_VALUES_H_

#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"

namespace sstfilter {

// `text` as a number, where it is one as option strings and the tools'
// flags write them: an optional '-', decimal digits with an optional
// fraction and exponent ("10", "7.5", "1e1"), or nan / inf (which range
// checks then refuse); nullopt for anything else ("0x10", "+10", " 10":
// absl::SimpleAtod alone takes those, which nobody means). -0 reads as 0.
std::optional<double> ParsePlainNumber(std::string_view text);

// Shortest decimal that reads back as exactly the same double.
std::string FormatBitsPerKey(double bits_per_key);

// How a value appears in messages: as given, '' when empty.
std::string ShownValue(std::string_view value);

// InvalidArgument "sstfilter.bloom: <option>=<value> <problem>".
absl::Status BadOptionValue(std::string_view option, std::string_view value,
                            std::string_view problem);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_OPTION_VALUES_H_

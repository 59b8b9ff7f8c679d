#include "filter/option_values.h"

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"

namespace sstfilter {

namespace {

// Debian's Abseil is built with its own string_view type.
absl::string_view ToAbsl(std::string_view s) { return {s.data(), s.size()}; }

size_t SkipDigits(std::string_view text, size_t i) {
  while (i < text.size() && absl::ascii_isdigit(static_cast<unsigned char>(text[i]))) ++i;
  return i;
}

// The text a number may be (see ParsePlainNumber).
bool IsPlainNumber(std::string_view text) {
  if (!text.empty() && text[0] == '-') text.remove_prefix(1);
  if (absl::EqualsIgnoreCase(ToAbsl(text), "nan") ||
      absl::EqualsIgnoreCase(ToAbsl(text), "inf")) {
    return true;
  }
  size_t i = SkipDigits(text, 0);
  size_t digits = i;
  if (i < text.size() && text[i] == '.') {
    const size_t fraction = i + 1;
    i = SkipDigits(text, fraction);
    digits += i - fraction;
  }
  if (digits == 0) return false;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    size_t exponent = i + 1;
    if (exponent < text.size() && (text[exponent] == '+' || text[exponent] == '-')) ++exponent;
    i = SkipDigits(text, exponent);
    if (i == exponent) return false;
  }
  return i == text.size();
}

}  // namespace

std::optional<double> ParsePlainNumber(std::string_view text) {
  double value = 0;
  if (!IsPlainNumber(text) || !absl::SimpleAtod(ToAbsl(text), &value)) return std::nullopt;
  return value + 0.0;  // -0 + 0 is +0.
}

std::string FormatBitsPerKey(double bits_per_key) {
  for (int precision = 6; precision <= 17; ++precision) {
    std::string text = absl::StrFormat("%.*g", precision, bits_per_key);
    double back = 0;
    if (absl::SimpleAtod(text, &back) && back == bits_per_key) return text;
  }
  return absl::StrFormat("%.17g", bits_per_key);
}

std::string ShownValue(std::string_view value) {
  return value.empty() ? "''" : std::string(value);
}

absl::Status BadOptionValue(std::string_view option, std::string_view value,
                            std::string_view problem) {
  return absl::InvalidArgumentError(
      absl::StrFormat("sstfilter.bloom: %s=%s %s", option, ShownValue(value), problem));
}

}  // namespace sstfilter

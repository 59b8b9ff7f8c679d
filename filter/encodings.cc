#include "filter/encodings.h"

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "filter/cpu_model.h"

namespace sstfilter {

FilterDescription UnrecognisedEncoding::Describe(std::string_view filter) {
  return FilterDescription::Fixed(
      FilterState::kMatchEverything,
      filter.empty() ? std::string("unrecognised (reads as may-match)")
                     : absl::StrFormat("unknown tag 0x%02x (reads as may-match)",
                                       static_cast<unsigned char>(filter.back())));
}

const std::vector<EncodingId>& AllEncodingIds() {
  static const auto* ids = [] {
    auto* all = new std::vector<EncodingId>();
    ForEachEncoding([all](auto encoding) { all->push_back(decltype(encoding)::kId); });
    return all;
  }();
  return *ids;
}

bool IsKnownEncoding(EncodingId encoding) {
  return static_cast<size_t>(encoding) < kNumEncodings;
}

const EncodingInfo& EncodingInfoOf(EncodingId encoding) {
  return VisitEncoding(encoding, [](auto e) -> const EncodingInfo& { return decltype(e)::kInfo; });
}

std::string_view EncodingName(EncodingId encoding) { return EncodingInfoOf(encoding).name; }

std::optional<EncodingId> ParseEncodingName(std::string_view name) {
  std::optional<EncodingId> found;
  ForEachEncoding([&](auto encoding) {
    using E = decltype(encoding);
    if (name == E::kInfo.name) found = E::kId;
  });
  return found;
}

std::string EncodingNameList() {
  std::string list;
  size_t i = 0;
  ForEachEncoding([&](auto encoding) {
    if (i > 0) list += i + 1 == kNumEncodings ? " or " : ", ";
    absl::StrAppendFormat(&list, "'%s'", decltype(encoding)::kInfo.name);
    ++i;
  });
  return list;
}

FilterDescription DescribeFilter(std::string_view filter) {
  return VisitEncodingOf(filter, [filter](auto encoding) {
    using E = decltype(encoding);
    if constexpr (std::is_same_v<E, UnrecognisedEncoding>) {
      return E::Describe(filter);
    } else {
      return E::kInfo.describe(filter);
    }
  });
}

std::vector<std::pair<std::string, std::string>> EncodingSimdLevels() {
  std::vector<std::pair<std::string, std::string>> levels;
  ForEachEncoding([&](auto encoding) {
    const EncodingInfo& info = decltype(encoding)::kInfo;
    levels.emplace_back(info.name, info.kernels());
  });
  return levels;
}

std::string MachineLine() {
  std::string line = absl::StrFormat(
      "CPU: %s; kernels: %s", CpuModelName(),
      absl::StrJoin(EncodingSimdLevels(), ", ", absl::PairFormatter(" ")));
  if (!SimdCapNote().empty()) absl::StrAppend(&line, " (", SimdCapNote(), ")");
  return line;
}

}  // namespace sstfilter

#include "bench/key_shapes.h"

#include <cstring>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"

namespace sstfilter::bench {
namespace {

constexpr char kUrlPrefix[] = "https://www.example.com/catalog/products/";  // 41 bytes.

void AppendLittleEndian(uint64_t v, std::string* dst) {
  char buf[8];
  for (int b = 0; b < 8; ++b) buf[b] = static_cast<char>(v >> (8 * b));
  dst->append(buf, 8);
}

void AppendBigEndian(uint64_t v, std::string* dst) {
  char buf[8];
  for (int b = 0; b < 8; ++b) buf[b] = static_cast<char>(v >> (8 * (7 - b)));
  dst->append(buf, 8);
}

}  // namespace

uint64_t Mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

const std::vector<KeyShape>& AllKeyShapes() {
  static const auto* shapes = new std::vector<KeyShape>{
      KeyShape::kRandom16, KeyShape::kLittleEndian64, KeyShape::kBigEndian64,
      KeyShape::kUserDecimal, KeyShape::kUrl};
  return *shapes;
}

std::string_view KeyShapeName(KeyShape shape) {
  switch (shape) {
    case KeyShape::kRandom16: return "random16";
    case KeyShape::kLittleEndian64: return "le64";
    case KeyShape::kBigEndian64: return "be64";
    case KeyShape::kUserDecimal: return "user";
    case KeyShape::kUrl: return "url";
  }
  return "?";
}

std::optional<KeyShape> ParseKeyShape(std::string_view name) {
  for (KeyShape shape : AllKeyShapes()) {
    if (KeyShapeName(shape) == name) return shape;
  }
  return std::nullopt;
}

absl::StatusOr<std::vector<KeyShape>> ParseKeyShapes(std::string_view names) {
  if (names.empty() || names == "all") return AllKeyShapes();
  std::vector<KeyShape> shapes;
  for (absl::string_view piece :
       absl::StrSplit(absl::string_view(names.data(), names.size()), ',', absl::SkipEmpty())) {
    const std::string name(piece);
    std::optional<KeyShape> shape = ParseKeyShape(name);
    if (!shape) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "unknown key shape '%s' (known: random16, le64, be64, user, url)", name));
    }
    shapes.push_back(*shape);
  }
  return shapes;
}

void AppendKey(KeyShape shape, uint64_t i, std::string* dst) {
  switch (shape) {
    case KeyShape::kRandom16:
      // The first 8 bytes alone are a bijection of i: keys are distinct.
      AppendLittleEndian(Mix64(i), dst);
      AppendLittleEndian(Mix64(i ^ 0x5851f42d4c957f2dULL), dst);
      return;
    case KeyShape::kLittleEndian64:
      AppendLittleEndian(i, dst);
      return;
    case KeyShape::kBigEndian64:
      AppendBigEndian(i, dst);
      return;
    case KeyShape::kUserDecimal:
      absl::StrAppendFormat(dst, "user%012u", i);
      return;
    case KeyShape::kUrl:
      absl::StrAppendFormat(dst, "%s%010u/details.html", kUrlPrefix, i);
      return;
  }
}

KeySet::KeySet(KeyShape shape, uint64_t first, size_t count) {
  std::vector<size_t> ends;
  ends.reserve(count);
  for (size_t j = 0; j < count; ++j) {
    AppendKey(shape, first + j, &arena_);
    ends.push_back(arena_.size());
  }
  // Views are taken only once the arena stops growing.
  views_.reserve(count);
  size_t begin = 0;
  for (size_t end : ends) {
    views_.emplace_back(arena_.data() + begin, end - begin);
    begin = end;
  }
}

}  // namespace sstfilter::bench

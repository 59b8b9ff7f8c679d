#include "inspect/leveldb_filter_block.h"

#include <utility>

#include "absl/strings/str_format.h"
#include "inspect/coding.h"

namespace sstfilter {

namespace {

constexpr size_t kTailSize = 5;  // fixed32 array_start, 1 byte base_lg.

absl::Status Damaged(const std::string& what) {
  return absl::DataLossError("filter block: " + what);
}

}  // namespace

absl::StatusOr<LevelDbFilterBlock> ParseLevelDbFilterBlock(std::string contents) {
  const size_t n = contents.size();
  if (n < kTailSize) {
    return Damaged(absl::StrFormat("%d bytes is too short for its %d-byte tail", n, kTailSize));
  }
  LevelDbFilterBlock block;
  block.base_lg = static_cast<unsigned char>(contents[n - 1]);
  if (block.base_lg > kMaxLevelDbFilterBaseLg) {
    return Damaged(absl::StrFormat("lg(base) %d is out of range (LevelDB writes %d; at most %d)",
                                   block.base_lg, kLevelDbFilterBaseLg,
                                   kMaxLevelDbFilterBaseLg));
  }
  std::string_view tail = std::string_view(contents).substr(n - kTailSize, 4);
  uint32_t array_start = 0;
  DecodeFixed32(&tail, &array_start);
  const size_t array_end = n - kTailSize;
  if (array_start > array_end) {
    return Damaged(absl::StrFormat(
        "offset array starts at %d, past the %d bytes before the block's tail", array_start,
        array_end));
  }
  if ((array_end - array_start) % 4 != 0) {
    return Damaged(absl::StrFormat(
        "offset array of %d bytes (from %d to %d) is not a whole number of fixed32 offsets",
        array_end - array_start, array_start, array_end));
  }
  std::string_view array =
      std::string_view(contents).substr(array_start, array_end - array_start);
  const size_t num_filters = array.size() / 4;
  block.bounds.reserve(num_filters + 1);
  for (size_t i = 0; i < num_filters; ++i) {
    uint32_t offset = 0;
    DecodeFixed32(&array, &offset);
    const uint32_t floor = i == 0 ? 0 : block.bounds.back();
    if (i == 0 && offset != 0) {
      return Damaged(absl::StrFormat("filter 0 starts at %d, not at 0", offset));
    }
    if (offset < floor) {
      return Damaged(absl::StrFormat("filter %d starts at %d, before filter %d (at %d)", i,
                                     offset, i - 1, floor));
    }
    if (offset > array_start) {
      return Damaged(absl::StrFormat("filter %d starts at %d, past the offset array (at %d)", i,
                                     offset, array_start));
    }
    block.bounds.push_back(offset);
  }
  if (num_filters == 0 && array_start != 0) {
    return Damaged(absl::StrFormat("%d bytes of filter data but no filter offsets", array_start));
  }
  block.bounds.push_back(array_start);
  block.contents = std::move(contents);
  return block;
}

}  // namespace sstfilter

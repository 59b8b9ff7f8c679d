// Deterministic key sets of the shapes real workloads have.
//
// Key i of a shape is a pure function of (shape, i), and distinct i give
// distinct keys, so "present" keys [0, n) and "absent" keys [n, n + q) never
// collide and every run sees the same keys.
#ifndef SSTFILTER_BENCH_KEY_SHAPES_H_
#define SSTFILTER_BENCH_KEY_SHAPES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace sstfilter::bench {

enum class KeyShape {
  kRandom16,      // 16 pseudo-random bytes.
  kLittleEndian64,  // i as 8 bytes, little-endian (sequential row ids).
  kBigEndian64,   // i as 8 bytes, big-endian (order-preserving integer keys).
  kUserDecimal,   // "user" + i zero-padded to 12 digits (YCSB-like, 16 bytes).
  kUrl,           // A 40-byte common prefix, then i in 10 digits and a suffix.
};

const std::vector<KeyShape>& AllKeyShapes();
std::string_view KeyShapeName(KeyShape shape);  // "random16", "le64", ...
std::optional<KeyShape> ParseKeyShape(std::string_view name);
// Comma-separated names ("" or "all": every shape); errors name the bad one.
absl::StatusOr<std::vector<KeyShape>> ParseKeyShapes(std::string_view names);

// Appends key number i of the shape to *dst.
void AppendKey(KeyShape shape, uint64_t i, std::string* dst);

// Keys first .. first + count - 1 of one shape in one arena, viewed as
// string_views (the form every filter adapter takes).
class KeySet {
 public:
  KeySet(KeyShape shape, uint64_t first, size_t count);
  KeySet(const KeySet&) = delete;
  KeySet& operator=(const KeySet&) = delete;

  const std::vector<std::string_view>& keys() const { return views_; }
  size_t size() const { return views_.size(); }

 private:
  std::string arena_;
  std::vector<std::string_view> views_;
};

// splitmix64: a bijection on 64-bit values with well-mixed output.
uint64_t Mix64(uint64_t x);

}  // namespace sstfilter::bench

#endif  // SSTFILTER_BENCH_KEY_SHAPES_H_

// What the fuzz targets share: a check that stops the fuzzer with a message,
// bytes held in allocations of exactly their size (so ASan sees a read one
// byte past the end), and adversarial inputs drawn from the fuzzer's bytes.
#ifndef SSTFILTER_FUZZ_FUZZ_UTIL_H_
#define SSTFILTER_FUZZ_FUZZ_UTIL_H_

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/escaping.h"
#include "tests/exact_bytes.h"

namespace sstfilter::fuzz {

// A finding: prints what disagreed and aborts (libFuzzer saves the input).
[[noreturn]] inline void Fail(std::string_view what) {
  std::fprintf(stderr, "FUZZ CHECK FAILED: %.*s\n", static_cast<int>(what.size()), what.data());
  std::abort();
}

#define SSTFILTER_FUZZ_CHECK(cond, ...)                                                  \
  do {                                                                                   \
    if (!(cond)) ::sstfilter::fuzz::Fail(absl::StrCat(#cond, ": ", __VA_ARGS__));        \
  } while (0)

// Escaped, shortened bytes for messages.
inline std::string Printable(std::string_view bytes) {
  constexpr size_t kMax = 64;
  const std::string_view head = bytes.substr(0, kMax);
  std::string s = absl::CEscape(absl::string_view(head.data(), head.size()));
  if (bytes.size() > kMax) absl::StrAppend(&s, "...(", bytes.size(), " bytes)");
  return s;
}

using ::sstfilter::testing::ExactBytes;  // tests/exact_bytes.h

// Keys of adversarial shapes, up to max_keys drawn one by one: random bytes
// (empty included), repeats of the previous key (adjacent duplicates, as
// RocksDB hands builders), long keys, "key" + decimal (the keys that make
// LevelDB's hash collide most). When many_keys > 0 the input may also ask
// for up to many_keys generated keys, so big filters need no big input.
inline std::vector<std::string> ConsumeKeys(FuzzedDataProvider& in, size_t max_keys,
                                            size_t many_keys = 0) {
  std::vector<std::string> keys;
  const size_t n = in.ConsumeIntegralInRange<size_t>(0, max_keys);
  for (size_t i = 0; i < n && in.remaining_bytes() > 0; ++i) {
    switch (in.ConsumeIntegralInRange(0, 3)) {
      case 0:
        keys.push_back(in.ConsumeRandomLengthString(64));
        break;
      case 1:
        keys.push_back(keys.empty() ? std::string() : keys.back());
        break;
      case 2:
        keys.emplace_back(in.ConsumeIntegralInRange<size_t>(0, 5000), in.ConsumeIntegral<char>());
        break;
      default:
        keys.push_back(absl::StrCat("key", in.ConsumeIntegral<uint32_t>()));
        break;
    }
  }
  if (many_keys > 0 && in.ConsumeBool()) {
    const size_t extra = in.ConsumeIntegralInRange<size_t>(0, many_keys);
    const uint32_t start = in.ConsumeIntegral<uint32_t>();
    const bool repeat = in.ConsumeBool();  // Every key twice, adjacent.
    for (size_t i = 0; i < extra; ++i) {
      keys.push_back(absl::StrCat("user", start + i));
      if (repeat) keys.push_back(keys.back());
    }
  }
  return keys;
}

// A valid builder setting, (0, 100]: an integer (LevelDB's own setting), a
// decimal fraction, or any double the fuzzer can spell that is in range
// (subnormals included). A policy's bits_per_key starts at kMinBitsPerKey.
inline double ConsumeBitsPerKey(FuzzedDataProvider& in) {
  constexpr double kMax = 100.0;  // kMaxBitsPerKey.
  switch (in.ConsumeIntegralInRange(0, 2)) {
    case 0:
      return in.ConsumeIntegralInRange(1, 100);
    case 1:
      return in.ConsumeIntegralInRange(1, 100000) / 1000.0;
    default: {
      const double d = in.ConsumeFloatingPoint<double>();
      return std::isfinite(d) && d > 0 && d <= kMax ? d : 10.0;
    }
  }
}

// Damages a real filter the way a disk or a bad write might: truncated or
// extended, some bits flipped, one byte (often in the trailer) overwritten.
inline void DamageFilter(FuzzedDataProvider& in, std::string* filter) {
  if (in.ConsumeBool()) {
    filter->resize(in.ConsumeIntegralInRange<size_t>(0, filter->size() + 70));
  }
  for (int flips = in.ConsumeIntegralInRange(0, 8); flips > 0 && !filter->empty(); --flips) {
    const size_t bit = in.ConsumeIntegralInRange<size_t>(0, filter->size() * 8 - 1);
    (*filter)[bit / 8] = static_cast<char>((*filter)[bit / 8] ^ (1 << (bit % 8)));
  }
  if (in.ConsumeBool() && !filter->empty()) {
    const size_t from_end = in.ConsumeIntegralInRange<size_t>(1, std::min<size_t>(filter->size(), 4));
    (*filter)[filter->size() - from_end] = in.ConsumeIntegral<char>();
  }
}

}  // namespace sstfilter::fuzz

#endif  // SSTFILTER_FUZZ_FUZZ_UTIL_H_

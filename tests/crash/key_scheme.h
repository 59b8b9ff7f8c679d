// The crash test's keys: which key the writer puts at each step, and which
// keys it never puts (the holes the verifier asks for).
//
// Step s (0, 1, 2, ...) writes the key numbered 2 * Slot(s); the odd
// numbers are never written. Slot() is a bijection of [0, kNumSteps) that
// spreads consecutive steps over the whole range, so every SST file spans
// most of the key space and a hole lies inside many files' key ranges: a
// lookup for it must be answered by those files' filters.
//
// The writer writes steps strictly in order, one WriteBatch (a run of
// steps) per synced write, so after any crash the DB holds exactly the
// steps before some point (WAL recovery replays a prefix of the writes).
#ifndef SSTFILTER_TESTS_CRASH_KEY_SCHEME_H_
#define SSTFILTER_TESTS_CRASH_KEY_SCHEME_H_

#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace sstfilter::crash {

// Steps the writer can take before the key space is used up.
inline constexpr uint64_t kNumSteps = uint64_t{1} << 22;
// Odd, so multiplying by it permutes [0, kNumSteps) (a power of two).
inline constexpr uint64_t kSlotStride = 0x9E3779B97F4A7C15ULL;  // 2^64 / golden ratio
inline constexpr uint64_t kSlotOffset = 12345;

// The slot step `step` writes. REQUIRES: step < kNumSteps.
inline uint64_t Slot(uint64_t step) {
  return (step * kSlotStride + kSlotOffset) & (kNumSteps - 1);
}

// Fixed width, so byte order is numeric order.
inline std::string KeyNumbered(uint64_t number) { return absl::StrFormat("k%08d", number); }

// The key written at `step`.
inline std::string WrittenKey(uint64_t step) { return KeyNumbered(2 * Slot(step)); }

// A key never written, next to the one `step` writes.
inline std::string HoleKey(uint64_t step) { return KeyNumbered(2 * Slot(step) + 1); }

// The value stored under WrittenKey(step): derived from the key alone, so a
// writer that repeats a step after a crash stores the same value.
inline std::string ValueOf(const std::string& key) {
  return absl::StrCat("value-of-", key, "-", std::string(24, static_cast<char>('a' + key.back() % 26)));
}

}  // namespace sstfilter::crash

#endif  // SSTFILTER_TESTS_CRASH_KEY_SCHEME_H_

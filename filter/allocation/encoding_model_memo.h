// The encodings' size and FP models at exact (encoding, n, setting) points,
// remembered process-wide for the per-level allocation
// (run_allocation.h). Sizing one table's filter there evaluates every
// run's models a few thousand times, mostly at points seen before: the
// searches for a setting visit the same midpoints for every target, and a
// tree's runs barely change from one table to the next. The answers are the
// models' own, bit for bit.
#ifndef SSTFILTER_FILTER_ALLOCATION_ENCODING_MODEL_MEMO_H_
#define SSTFILTER_FILTER_ALLOCATION_ENCODING_MODEL_MEMO_H_

#include <cstddef>

#include "filter/encoding_id.h"
#include "filter/fp_target.h"

namespace sstfilter {

// EncodingInfo::expected_fp_rate(num_keys, bits_per_key) of `encoding`.
double MemoExpectedFpRate(EncodingId encoding, size_t num_keys, double bits_per_key);

// BitsPerKeyForFp (filter/fp_target.h) on MemoExpectedFpRate, to
// `precision` bits/key: a search's first midpoints are its neighbours'.
double MemoBitsPerKeyForFp(EncodingId encoding, size_t num_keys, double fp_rate,
                           double precision = kFpTargetBitsPrecision);

// The bytes of `encoding`'s filter of num_keys keys built at `setting`
// (its Builder's FilterSize).
size_t MemoFilterSize(EncodingId encoding, size_t num_keys, double setting);

// The bits per key that filter spends (MemoFilterSize over num_keys): an
// encoding's setting is its Bloom-equivalent bits, which banded, for one,
// spends about 0.71 of. REQUIRES: num_keys > 0.
double MemoSpentBits(EncodingId encoding, size_t num_keys, double setting);

// The most keys `encoding`'s filter built at `setting` holds in `bytes`
// (its Builder's MaxEntriesForSize).
size_t MemoMaxEntriesForSize(EncodingId encoding, size_t bytes, double setting);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_ALLOCATION_ENCODING_MODEL_MEMO_H_

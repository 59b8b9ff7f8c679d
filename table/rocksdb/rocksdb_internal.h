// The one include of RocksDB's internal filter interface
// (FilterBitsBuilder / FilterBitsReader), with a compile-time check that the
// header comes from exactly the RocksDB version being linked.
#ifndef SSTFILTER_TABLE_ROCKSDB_INTERNAL_H_
#define SSTFILTER_TABLE_ROCKSDB_INTERNAL_H_

#include "rocksdb/version.h"
#include "table/block_based/filter_policy_internal.h"

// Built inside a RocksDB tree as its plugin (sstfilter.mk), the header is
// that tree's own: nothing to cross-check.
#ifndef SSTFILTER_ROCKSDB_IN_TREE
static_assert(ROCKSDB_MAJOR == SSTFILTER_ROCKSDB_SOURCE_MAJOR &&
                  ROCKSDB_MINOR == SSTFILTER_ROCKSDB_SOURCE_MINOR &&
                  ROCKSDB_PATCH == SSTFILTER_ROCKSDB_SOURCE_PATCH,
              "filter_policy_internal.h is from a different RocksDB version "
              "than the installed headers; reconfigure with a matching "
              "-DROCKSDB_SOURCE_DIR");
#endif

// The internal builder interface has three shapes (checked against RocksDB's
// headers): up to 9.5 as in 7.8; from 9.6 a pure virtual AddKeyAndAlt; from
// 10.9 pure virtual CalculateSpace and EstimatedFpRate. Our adapter declares
// all of them and marks each `override` where the interface has it.
#define SSTFILTER_ROCKSDB_AT_LEAST(major, minor) \
  (ROCKSDB_MAJOR > (major) || (ROCKSDB_MAJOR == (major) && ROCKSDB_MINOR >= (minor)))
#if SSTFILTER_ROCKSDB_AT_LEAST(9, 6)
#define SSTFILTER_OVERRIDE_SINCE_ROCKSDB_9_6 override
#else
#define SSTFILTER_OVERRIDE_SINCE_ROCKSDB_9_6
#endif
#if SSTFILTER_ROCKSDB_AT_LEAST(10, 9)
#define SSTFILTER_OVERRIDE_SINCE_ROCKSDB_10_9 override
#else
#define SSTFILTER_OVERRIDE_SINCE_ROCKSDB_10_9
#endif

#endif  // SSTFILTER_TABLE_ROCKSDB_INTERNAL_H_

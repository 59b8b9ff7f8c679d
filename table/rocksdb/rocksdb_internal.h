// The one include of RocksDB's internal filter interface
// (FilterBitsBuilder / FilterBitsReader), with a compile-time check that the
// header comes from exactly the installed RocksDB version.
#ifndef SSTFILTER_TABLE_ROCKSDB_INTERNAL_H_
#define SSTFILTER_TABLE_ROCKSDB_INTERNAL_H_

#include "rocksdb/version.h"
#include "table/block_based/filter_policy_internal.h"

static_assert(ROCKSDB_MAJOR == SSTFILTER_ROCKSDB_SOURCE_MAJOR &&
                  ROCKSDB_MINOR == SSTFILTER_ROCKSDB_SOURCE_MINOR &&
                  ROCKSDB_PATCH == SSTFILTER_ROCKSDB_SOURCE_PATCH,
              "filter_policy_internal.h is from a different RocksDB version "
              "than the installed headers; reconfigure with a matching "
              "-DROCKSDB_SOURCE_DIR");

#endif  // SSTFILTER_TABLE_ROCKSDB_INTERNAL_H_

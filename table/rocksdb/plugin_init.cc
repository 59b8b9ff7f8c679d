// Entry point of libsstfilter_rocksdb.so: registers the policies with
// RocksDB's default object library as soon as the library is loaded, so
// stock tools (db_bench, ldb, sst_dump) resolve "sstfilter.bloom:<bits>"
// when started with LD_PRELOAD=libsstfilter_rocksdb.so.
#include "table/rocksdb/registration.h"

namespace {

__attribute__((constructor)) void RegisterOnLoad() {
  sstfilter::EnsureRocksDbFilterPoliciesRegistered();
}

}  // namespace

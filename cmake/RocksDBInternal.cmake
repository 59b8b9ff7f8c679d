# Locates table/block_based/filter_policy_internal.h in a RocksDB source tree
# whose version matches the installed RocksDB exactly, and defines the
# interface target sstfilter::rocksdb_internal that puts it on the include path.
#
# Input: ROCKSDB_SOURCE_DIR (tools/dev fetches Debian's source package into
# .deps/ and passes it). Output: target sstfilter_rocksdb_internal.

set(ROCKSDB_SOURCE_DIR "" CACHE PATH
    "RocksDB source tree of exactly the installed version (for its internal filter header)")

set(_fix "Run tools/dev build (fetches the matching Debian source), or pass -DROCKSDB_SOURCE_DIR=<rocksdb-${RocksDB_VERSION} source tree>")

if(NOT ROCKSDB_SOURCE_DIR)
  message(FATAL_ERROR "ROCKSDB_SOURCE_DIR is not set. ${_fix}")
endif()
set(_hdr "${ROCKSDB_SOURCE_DIR}/table/block_based/filter_policy_internal.h")
set(_ver "${ROCKSDB_SOURCE_DIR}/include/rocksdb/version.h")
if(NOT EXISTS "${_hdr}" OR NOT EXISTS "${_ver}")
  message(FATAL_ERROR "${ROCKSDB_SOURCE_DIR} lacks table/block_based/filter_policy_internal.h "
                      "or include/rocksdb/version.h. ${_fix}")
endif()

include(${CMAKE_CURRENT_LIST_DIR}/RocksDBVersion.cmake)
sstfilter_rocksdb_version("${_ver}" ROCKSDB_SOURCE_VERSION)
if(NOT ROCKSDB_SOURCE_VERSION VERSION_EQUAL RocksDB_VERSION)
  message(FATAL_ERROR "RocksDB source in ${ROCKSDB_SOURCE_DIR} is version "
                      "${ROCKSDB_SOURCE_VERSION} but the installed RocksDB is "
                      "${RocksDB_VERSION}; the internal filter interface must match exactly. ${_fix}")
endif()
message(STATUS "RocksDB internal header: ${_hdr} (version ${ROCKSDB_SOURCE_VERSION})")

# Only the one internal directory goes on the path (as a SYSTEM include).
# The definitions let a static_assert recheck the match at compile time.
add_library(sstfilter_rocksdb_internal INTERFACE)
target_include_directories(sstfilter_rocksdb_internal SYSTEM INTERFACE "${ROCKSDB_SOURCE_DIR}")
target_compile_definitions(sstfilter_rocksdb_internal INTERFACE
  SSTFILTER_ROCKSDB_SOURCE_MAJOR=${ROCKSDB_SOURCE_VERSION_MAJOR}
  SSTFILTER_ROCKSDB_SOURCE_MINOR=${ROCKSDB_SOURCE_VERSION_MINOR}
  SSTFILTER_ROCKSDB_SOURCE_PATCH=${ROCKSDB_SOURCE_VERSION_PATCH})
target_link_libraries(sstfilter_rocksdb_internal INTERFACE sstfilter_rocksdb_public)

# RocksDB's public headers, for code that includes no internal one (the
# census, table/census/). RocksDB 10.0 and later default operator== in
# them: C++20 for everything that includes them.
add_library(sstfilter_rocksdb_public INTERFACE)
target_link_libraries(sstfilter_rocksdb_public INTERFACE RocksDB::rocksdb-shared)
if(ROCKSDB_SOURCE_VERSION VERSION_GREATER_EQUAL 10.0)
  target_compile_features(sstfilter_rocksdb_public INTERFACE cxx_std_20)
endif()

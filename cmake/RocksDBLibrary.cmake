# Finds the RocksDB library to link: by default the installed package
# (find_package(RocksDB CONFIG): Debian's librocksdb-dev, or any RocksDB
# installed with CMake); or, with SSTFILTER_ROCKSDB_LIBRARY, a librocksdb.so
# built from a source tree (ROCKSDB_SOURCE_DIR, whose include/ then holds the
# public headers). Output: target RocksDB::rocksdb-shared, RocksDB_VERSION.

set(SSTFILTER_ROCKSDB_LIBRARY "" CACHE FILEPATH
    "librocksdb.so built from ROCKSDB_SOURCE_DIR; empty: the installed RocksDB package")

if(NOT SSTFILTER_ROCKSDB_LIBRARY)
  find_package(RocksDB CONFIG REQUIRED)
  return()
endif()

if(NOT EXISTS "${SSTFILTER_ROCKSDB_LIBRARY}" OR NOT EXISTS "${ROCKSDB_SOURCE_DIR}/include/rocksdb/version.h")
  message(FATAL_ERROR "SSTFILTER_ROCKSDB_LIBRARY=${SSTFILTER_ROCKSDB_LIBRARY} needs an existing "
                      "library and ROCKSDB_SOURCE_DIR set to the source tree it was built from")
endif()
include(${CMAKE_CURRENT_LIST_DIR}/RocksDBVersion.cmake)
sstfilter_rocksdb_version("${ROCKSDB_SOURCE_DIR}/include/rocksdb/version.h" RocksDB_VERSION)
find_package(Threads REQUIRED)
add_library(RocksDB::rocksdb-shared SHARED IMPORTED)
set_target_properties(RocksDB::rocksdb-shared PROPERTIES
  IMPORTED_LOCATION "${SSTFILTER_ROCKSDB_LIBRARY}"
  INTERFACE_INCLUDE_DIRECTORIES "${ROCKSDB_SOURCE_DIR}/include"
  INTERFACE_LINK_LIBRARIES Threads::Threads)
message(STATUS "RocksDB ${RocksDB_VERSION} from source: ${SSTFILTER_ROCKSDB_LIBRARY}")

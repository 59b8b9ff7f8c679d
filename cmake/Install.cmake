# `cmake --install <build> --prefix P` puts under P:
#   include/sstfilter/{filter,table/rocksdb,table/leveldb}/*.h   (include root: include/sstfilter)
#   lib/libsstfilter.a                    sstfilter::filter  (no RocksDB)
#   lib/libsstfilter_allocation.a         sstfilter::allocation (the per-level model; no RocksDB)
#   lib/libsstfilter_cache_model.a        sstfilter::cache_model (reads per Get in a block cache)
#   lib/libsstfilter_plan.a               sstfilter::plan (a table's decision under the cache plan)
#   lib/libsstfilter_census.a             sstfilter::census (what watches a RocksDB database)
#   lib/libsstfilter_rocksdb_policy.a     sstfilter::rocksdb (the RocksDB policy)
#   lib/libsstfilter_rocksdb.so           the LD_PRELOAD plugin for stock tools
#   lib/libsstfilter_leveldb_policy.a     sstfilter::leveldb (the LevelDB policy; CMake
#                                         package only: LevelDB ships no .pc file)
#   lib/cmake/sstfilter/sstfilterConfig.cmake (+ version, targets)
#   lib/pkgconfig/sstfilter.pc
# Only against an installed RocksDB (found by find_package, which the
# package's consumers repeat); a build linking a librocksdb.so from a source
# tree (SSTFILTER_ROCKSDB_LIBRARY) installs nothing.
if(SSTFILTER_ROCKSDB_LIBRARY)
  return()
endif()
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(SSTFILTER_INCLUDE_ROOT ${CMAKE_INSTALL_INCLUDEDIR}/sstfilter)
set(SSTFILTER_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/sstfilter)

set_target_properties(sstfilter PROPERTIES EXPORT_NAME filter)
set_target_properties(sstfilter_allocation PROPERTIES EXPORT_NAME allocation)
set_target_properties(sstfilter_cache_model PROPERTIES EXPORT_NAME cache_model)
set_target_properties(sstfilter_plan PROPERTIES EXPORT_NAME plan)
set_target_properties(sstfilter_census PROPERTIES EXPORT_NAME census)
install(TARGETS sstfilter sstfilter_allocation sstfilter_cache_model sstfilter_plan
        sstfilter_census sstfilter_rocksdb_glue
        sstfilter_leveldb EXPORT sstfilterTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS sstfilter_rocksdb LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY filter/ DESTINATION ${SSTFILTER_INCLUDE_ROOT}/filter
        FILES_MATCHING PATTERN "*.h")
install(FILES table/rocksdb/rocksdb_filter_policy.h table/rocksdb/registration.h
        DESTINATION ${SSTFILTER_INCLUDE_ROOT}/table/rocksdb)
install(FILES table/leveldb/leveldb_filter_policy.h
        DESTINATION ${SSTFILTER_INCLUDE_ROOT}/table/leveldb)

install(EXPORT sstfilterTargets NAMESPACE sstfilter:: DESTINATION ${SSTFILTER_CMAKE_DIR})
configure_package_config_file(cmake/sstfilterConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/sstfilterConfig.cmake INSTALL_DESTINATION ${SSTFILTER_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/sstfilterConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/sstfilterConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/sstfilterConfigVersion.cmake
        DESTINATION ${SSTFILTER_CMAKE_DIR})

# The .pc file finds its prefix from its own location (pkg-config's
# pcfiledir), so it works under whatever --prefix the install is given.
file(RELATIVE_PATH SSTFILTER_PC_TO_PREFIX "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
string(REGEX REPLACE "/$" "" SSTFILTER_PC_TO_PREFIX "${SSTFILTER_PC_TO_PREFIX}")
configure_file(cmake/sstfilter.pc.in ${CMAKE_CURRENT_BINARY_DIR}/sstfilter.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/sstfilter.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# sstfilter built inside a RocksDB source tree as its plugin (see
# sstfilter.mk). RocksDB's CMake add_subdirectory()s plugin/sstfilter, whose
# top-level CMakeLists.txt includes only this file, and then reads the
# variables set here in its own scope:
#   sstfilter_SOURCES        the sources of sstfilter.mk, relative to here
#   sstfilter_COMPILE_FLAGS  set on those sources only (not on RocksDB's own,
#                            whose objects therefore stay as they were)
#   sstfilter_LIBS           Abseil and xxHash, as library files
# The registrar (sstfilter_FUNC) and the source list come from sstfilter.mk,
# which RocksDB's make and CMake builds both read.

include(${CMAKE_CURRENT_LIST_DIR}/PluginSources.cmake)

find_package(PkgConfig REQUIRED)
pkg_check_modules(SSTFILTER_PLUGIN_DEPS REQUIRED
  absl_status absl_statusor absl_str_format absl_strings absl_span libxxhash)

get_filename_component(_sstfilter_root "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
list(JOIN SSTFILTER_PLUGIN_DEPS_CFLAGS " " _sstfilter_dep_cflags)
# SSTFILTER_ROCKSDB_IN_TREE: the internal filter header is this RocksDB's
# own, so table/rocksdb/rocksdb_internal.h has no version to cross-check.
set(sstfilter_SOURCES ${SSTFILTER_PLUGIN_SOURCES} PARENT_SCOPE)
set(sstfilter_COMPILE_FLAGS
    "-I${_sstfilter_root} -DSSTFILTER_ROCKSDB_IN_TREE ${_sstfilter_dep_cflags}" PARENT_SCOPE)
set(sstfilter_LIBS ${SSTFILTER_PLUGIN_DEPS_LINK_LIBRARIES} PARENT_SCOPE)
message(STATUS "sstfilter: RocksDB plugin, ${_sstfilter_root}")

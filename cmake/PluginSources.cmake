# The one list of the RocksDB plugin's sources is sstfilter_SOURCES in
# sstfilter.mk (RocksDB's make reads that file; it must stay one line).
# Every CMake build reads it from there:
#   SSTFILTER_FILTER_SOURCES      filter/...         the encodings and what they
#                                                    share (library sstfilter)
#   SSTFILTER_ALLOCATION_SOURCES  filter/allocation/ the per-level model (library
#                                                    sstfilter_allocation)
#   SSTFILTER_CACHE_MODEL_SOURCES filter/cache_model/ device reads per Get in a
#                                                    block cache (library
#                                                    sstfilter_cache_model)
#   SSTFILTER_PLAN_SOURCES        filter/plan/       a table's decision, under the
#                                                    cache plan (library
#                                                    sstfilter_plan)
#   SSTFILTER_CENSUS_SOURCES      table/census/...   what watches a RocksDB database
#                                                    (library sstfilter_census)
#   SSTFILTER_GLUE_SOURCES        table/rocksdb/...  the RocksDB adapter, without the
#                                                    in-tree registrar
#   SSTFILTER_PLUGIN_SOURCES   all of them, as RocksDB builds them in its tree
# Paths are relative to the repository root.
file(STRINGS "${CMAKE_CURRENT_LIST_DIR}/../sstfilter.mk" _sstfilter_line
     REGEX "^sstfilter_SOURCES = ")
string(REPLACE "sstfilter_SOURCES = " "" _sstfilter_line "${_sstfilter_line}")
separate_arguments(SSTFILTER_PLUGIN_SOURCES UNIX_COMMAND "${_sstfilter_line}")
set(SSTFILTER_FILTER_SOURCES ${SSTFILTER_PLUGIN_SOURCES})
list(FILTER SSTFILTER_FILTER_SOURCES INCLUDE REGEX "^filter/")
list(FILTER SSTFILTER_FILTER_SOURCES EXCLUDE REGEX "^filter/(allocation|cache_model|plan)/")
set(SSTFILTER_ALLOCATION_SOURCES ${SSTFILTER_PLUGIN_SOURCES})
list(FILTER SSTFILTER_ALLOCATION_SOURCES INCLUDE REGEX "^filter/allocation/")
set(SSTFILTER_CACHE_MODEL_SOURCES ${SSTFILTER_PLUGIN_SOURCES})
list(FILTER SSTFILTER_CACHE_MODEL_SOURCES INCLUDE REGEX "^filter/cache_model/")
set(SSTFILTER_PLAN_SOURCES ${SSTFILTER_PLUGIN_SOURCES})
list(FILTER SSTFILTER_PLAN_SOURCES INCLUDE REGEX "^filter/plan/")
set(SSTFILTER_CENSUS_SOURCES ${SSTFILTER_PLUGIN_SOURCES})
list(FILTER SSTFILTER_CENSUS_SOURCES INCLUDE REGEX "^table/census/")
set(SSTFILTER_GLUE_SOURCES ${SSTFILTER_PLUGIN_SOURCES})
list(FILTER SSTFILTER_GLUE_SOURCES INCLUDE REGEX "^table/rocksdb/")
# The registrar RocksDB calls when the plugin is built into its library;
# outside a RocksDB tree, programs call EnsureRocksDbFilterPoliciesRegistered.
list(REMOVE_ITEM SSTFILTER_GLUE_SOURCES table/rocksdb/rocksdb_plugin.cc)
# Editing the list reconfigures the build.
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             "${CMAKE_CURRENT_LIST_DIR}/../sstfilter.mk")

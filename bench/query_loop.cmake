# sstfilter_query_loop (query_loop_main.cc): one filter queried in a loop,
# for counting instructions per query (tools/dev insn-count, also on an
# arm64 cross build, where the benchmarks are not built). Outside `all`:
# built when asked for by target. Included by bench/ and the top level
# (defined once, include_guard); the reader set is the micro bench's too.
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/key_shapes.cmake)
add_library(sstfilter_rocksdb_reader_set STATIC EXCLUDE_FROM_ALL
  ${CMAKE_CURRENT_LIST_DIR}/rocksdb_reader_set.cc)
target_include_directories(sstfilter_rocksdb_reader_set PUBLIC ${PROJECT_SOURCE_DIR})
target_link_libraries(sstfilter_rocksdb_reader_set PUBLIC
  sstfilter_rocksdb_glue sstfilter_key_shapes absl::status absl::statusor absl::span)

add_executable(sstfilter_query_loop EXCLUDE_FROM_ALL ${CMAKE_CURRENT_LIST_DIR}/query_loop_main.cc)
target_link_libraries(sstfilter_query_loop PRIVATE
  sstfilter_rocksdb_reader_set absl::flags absl::flags_parse absl::flags_usage absl::str_format)
# run/sstfilter_query_loop in a cross build: the program under the emulator.
include(${PROJECT_SOURCE_DIR}/cmake/CrossRun.cmake)
sstfilter_runnable(RUN_sstfilter_query_loop sstfilter_query_loop)

# sstfilter_key_shapes: the key shapes (key_shapes.h) the benchmarks and the
# tests share. Included by bench/ and tests/ (defined once, include_guard),
# so that the tests link it when SSTFILTER_BUILD_BENCH is OFF too.
include_guard(GLOBAL)
add_library(sstfilter_key_shapes STATIC ${CMAKE_CURRENT_LIST_DIR}/key_shapes.cc)
target_include_directories(sstfilter_key_shapes PUBLIC ${PROJECT_SOURCE_DIR})
target_link_libraries(sstfilter_key_shapes PUBLIC
  absl::status absl::statusor absl::str_format absl::strings)

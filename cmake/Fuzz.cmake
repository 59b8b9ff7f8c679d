# The libFuzzer build (-DSSTFILTER_FUZZ=ON, with CXX=clang++; tools/dev fuzz
# configures it in build-fuzz/). All project code gets libFuzzer's coverage
# instrumentation and ASan + UBSan; only the fuzz/ targets link libFuzzer's
# main (-fsanitize=fuzzer, fuzz/CMakeLists.txt). The gcc build never
# includes this file.
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "SSTFILTER_FUZZ needs clang (libFuzzer): configure with "
                      "CXX=clang++-14, or run tools/dev fuzz")
endif()
if(SSTFILTER_SANITIZE)
  message(FATAL_ERROR "SSTFILTER_FUZZ already builds with ASan + UBSan; leave SSTFILTER_SANITIZE off")
endif()
add_compile_options(-fsanitize=fuzzer-no-link,address,undefined
                    -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g)
add_link_options(-fsanitize=address,undefined)

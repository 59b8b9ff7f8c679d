# How a test runs one of this build's programs. Natively, the program
# itself. In a cross build with an emulator (CMAKE_CROSSCOMPILING_EMULATOR,
# set by the toolchain file: qemu-user for aarch64), a wrapper script
# run/<target> that execs the program under the emulator, so that test
# scripts and tests which start a program as a child process run it as
# ctest runs a test binary. ctest itself prefixes the emulator to tests
# whose command is a target.
#
# sstfilter_runnable(<out-var> <target>): <out-var> is the path to run.
function(sstfilter_runnable out target)
  if(NOT CMAKE_CROSSCOMPILING OR NOT CMAKE_CROSSCOMPILING_EMULATOR)
    set(${out} "$<TARGET_FILE:${target}>" PARENT_SCOPE)
    return()
  endif()
  if(CMAKE_VERSION VERSION_LESS 3.19)
    message(FATAL_ERROR "a cross build's tests need CMake 3.19 or later (file(GENERATE) with "
                        "FILE_PERMISSIONS for their run/ wrappers)")
  endif()
  set(emulator "")
  foreach(word IN LISTS CMAKE_CROSSCOMPILING_EMULATOR)
    string(APPEND emulator "'${word}' ")
  endforeach()
  set(wrapper "${PROJECT_BINARY_DIR}/run/${target}")
  file(GENERATE OUTPUT "${wrapper}"
       CONTENT "#!/bin/sh\nexec ${emulator}'$<TARGET_FILE:${target}>' \"$@\"\n"
       FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                        WORLD_READ WORLD_EXECUTE)
  set(${out} "${wrapper}" PARENT_SCOPE)
endfunction()

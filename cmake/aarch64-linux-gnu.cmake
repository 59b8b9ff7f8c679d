# Toolchain file: sstfilter for 64-bit ARM Linux, built on x86-64 with
# Debian's cross compiler (g++-aarch64-linux-gnu) and run under qemu-user
# (qemu-user-static). The libraries sstfilter links (RocksDB, LevelDB,
# Abseil, GoogleTest, ...) come from SSTFILTER_SYSROOT: Debian's arm64
# packages unpacked into one directory, as tools/dev arm64-test makes it,
# with their CMake files pointing into it. The C library and the C++
# runtime are the cross toolchain's (/usr/aarch64-linux-gnu).
#
#   cmake -S . -B build-aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
#     -DSSTFILTER_SYSROOT=<dir> -DROCKSDB_SOURCE_DIR=<RocksDB source of the same version>
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)

# try_compile projects see the sysroot too.
if(NOT SSTFILTER_SYSROOT)
  set(SSTFILTER_SYSROOT "$ENV{SSTFILTER_SYSROOT}")
endif()
if(NOT IS_DIRECTORY "${SSTFILTER_SYSROOT}/usr/lib/aarch64-linux-gnu")
  message(FATAL_ERROR "SSTFILTER_SYSROOT='${SSTFILTER_SYSROOT}' is not an arm64 sysroot "
                      "(tools/dev arm64-test makes one)")
endif()
set(ENV{SSTFILTER_SYSROOT} "${SSTFILTER_SYSROOT}")
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES SSTFILTER_SYSROOT)

set(CMAKE_FIND_ROOT_PATH "${SSTFILTER_SYSROOT}" /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(ENV{PKG_CONFIG_SYSROOT_DIR} "${SSTFILTER_SYSROOT}")
set(_sstfilter_lib "${SSTFILTER_SYSROOT}/usr/lib/aarch64-linux-gnu")
set(ENV{PKG_CONFIG_LIBDIR} "${_sstfilter_lib}/pkgconfig:${SSTFILTER_SYSROOT}/usr/share/pkgconfig")

# Debian's arm64 packages put some libraries (zlib, bzip2) in /lib.
set(_sstfilter_libs "${_sstfilter_lib}:${SSTFILTER_SYSROOT}/lib/aarch64-linux-gnu")
set(_sstfilter_link "-L${_sstfilter_lib} -Wl,-rpath-link,${_sstfilter_libs}")
set(CMAKE_EXE_LINKER_FLAGS_INIT "${_sstfilter_link}")
set(CMAKE_SHARED_LINKER_FLAGS_INIT "${_sstfilter_link}")

# ctest runs test programs (and gtest_discover_tests lists their tests)
# through this; tests that start programs themselves use run/ wrappers
# (cmake/CrossRun.cmake).
set(CMAKE_CROSSCOMPILING_EMULATOR
    qemu-aarch64-static -L /usr/aarch64-linux-gnu -E "LD_LIBRARY_PATH=${_sstfilter_libs}")

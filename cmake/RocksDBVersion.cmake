# sstfilter_rocksdb_version(<version.h> <prefix>): sets <prefix>_MAJOR,
# <prefix>_MINOR, <prefix>_PATCH and <prefix> ("M.m.p") in the caller's scope
# from a RocksDB include/rocksdb/version.h.
include_guard(GLOBAL)
function(sstfilter_rocksdb_version header prefix)
  file(STRINGS "${header}" _lines REGEX "#define ROCKSDB_(MAJOR|MINOR|PATCH) ")
  foreach(_l IN LISTS _lines)
    if(_l MATCHES "#define ROCKSDB_(MAJOR|MINOR|PATCH) ([0-9]+)")
      set(${prefix}_${CMAKE_MATCH_1} ${CMAKE_MATCH_2} PARENT_SCOPE)
      set(_${CMAKE_MATCH_1} ${CMAKE_MATCH_2})
    endif()
  endforeach()
  set(${prefix} "${_MAJOR}.${_MINOR}.${_PATCH}" PARENT_SCOPE)
endfunction()

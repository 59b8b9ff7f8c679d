#!/usr/bin/env bash
# sstfilter.mk (RocksDB's plugin convention: RocksDB builds the plugin from
# its source list) must list exactly the sources of our CMake libraries it
# stands for: the filters (sstfilter), the RocksDB glue and the registrar.
# A source added to CMake and not to sstfilter.mk builds and tests fine here
# and only fails to link inside a RocksDB tree.
# Usage: plugin_sources_test.sh <sstfilter.mk> <source dir>
#          <filter library's sources> <glue's dir> <glue's sources>
# (source lists as CMake passes them: ';'-separated, relative to the
# repository or, for the glue, to its own directory)
set -euo pipefail
mk="$1" root="$2" filter_sources="$3" glue_dir="$4" glue_sources="$5"
listed="$(sed -n 's/^sstfilter_SOURCES = //p' "$mk" | tr ' ' '\n' | sed '/^$/d' | sort)"
expected="$( (tr ';' '\n' <<<"$filter_sources"
              tr ';' '\n' <<<"$glue_sources" | sed "s|^\([^/]*\)$|$glue_dir/\1|"
              echo table/rocksdb/rocksdb_plugin.cc) |
             sed "s|^$root/||; /\.h$/d; /^$/d" | sort -u)"
if [ "$listed" = "$expected" ]; then
  echo "sstfilter.mk lists the $(wc -l <<<"$listed") plugin sources"
else
  echo "sstfilter.mk's sstfilter_SOURCES differ from CMake's (< sstfilter.mk, > CMake):"
  diff <(echo "$listed") <(echo "$expected") || true
  exit 1
fi

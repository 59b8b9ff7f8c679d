#!/usr/bin/env bash
# The parts include only the parts below them (docs/design.md#code-layout):
# the encodings (filter/) below the per-level model (filter/allocation/)
# below the cache model (filter/cache_model/) below the plan (filter/plan/)
# below the census (table/census/) below the RocksDB adapter
# (table/rocksdb/). The cache model reads the per-level model's plain data
# (the tree, its traffic and blocks), never its allocation. The compiler cannot check this: RocksDB's headers are
# on every include path. Also: no file of the adapter reads RocksDB's
# metadata or handles a flush or compaction event (that is the census's).
# Usage: layers_test.sh <source root>
set -uo pipefail
root="$1"
source "$(dirname "$0")/cli_test_lib.sh"

# includes_none <folder> <find args> -- <pattern>...: no file of the folder
# (as find selects them) has an #include line matching a pattern.
includes_none() {
  local folder="$1"; shift
  local -a select=()
  while [ "$1" != -- ]; do select+=("$1"); shift; done
  shift
  local pattern hits
  for pattern in "$@"; do
    hits="$(cd "$root" && find "$folder" "${select[@]}" \( -name '*.h' -o -name '*.cc' \) \
            -exec grep -HnE "^#include \"$pattern" {} +)"
    if [ -z "$hits" ]; then pass; else fail "$folder includes $pattern:"; echo "$hits"; fi
  done
}

includes_none filter -not -path 'filter/allocation/*' -not -path 'filter/cache_model/*' \
  -not -path 'filter/plan/*' -- \
  'filter/allocation/' 'filter/cache_model/' 'filter/plan/' 'rocksdb/' 'leveldb/' 'table/' \
  'tools/' 'inspect/'
includes_none filter/allocation -- 'filter/cache_model/' 'filter/plan/' 'rocksdb/' 'leveldb/' \
  'table/' 'tools/' 'inspect/'
includes_none filter/cache_model -- 'filter/plan/' 'filter/allocation/run_allocation' \
  'filter/allocation/table_fp_target' 'filter/allocation/fp_curve' 'rocksdb/' 'leveldb/' 'table/' \
  'tools/' 'inspect/'
includes_none filter/plan -- 'rocksdb/' 'leveldb/' 'table/' 'tools/' 'inspect/'
includes_none table/census -- 'table/rocksdb/' 'table/leveldb/' 'tools/' 'inspect/'
includes_none table/rocksdb -- 'table/leveldb/' 'tools/' 'inspect/' 'rocksdb/listener.h' \
  'rocksdb/metadata.h'
adapter_events="$(cd "$root" && grep -rnE \
  'GetLiveFilesMetaData|LiveFileMetaData|public rocksdb::EventListener|OnFlush|OnCompaction' table/rocksdb)"
check "table/rocksdb/ reads no tree and handles no event: $adapter_events" \
  test -z "$adapter_events"
finish

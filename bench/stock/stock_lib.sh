# shellcheck shell=bash
# What the stock db_bench scripts share (sourced): the head of their
# OPTIONS files and what the census wrote in a DB's LOGs.

# An OPTIONS file's sections before the column family's: RocksDB 7.8.3's
# version, and the DB options with the census listener.
options_head() {
  cat <<OPT
[Version]
  rocksdb_version=7.8.3
  options_file_version=1.1
[DBOptions]
  create_if_missing=true
  listeners=sstfilter.level_census
OPT
}

# The tables the census's rebuild loop rewrote and the bytes it wrote, as
# the DB's LOGs say ("sstfilter: rebuilt ... wrote N bytes").
rebuilt_bytes() {  # rebuilt_bytes DB
  cat "$1"/LOG* 2>/dev/null | awk '/sstfilter: rebuilt/ && match($0, /wrote [0-9]+ bytes/) {
    n++; b += substr($0, RSTART + 6, RLENGTH - 12) } END { printf "%d %.0f\n", n, b }'
}

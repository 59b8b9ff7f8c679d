# sstfilter as a RocksDB plugin, in RocksDB's convention for extensions
# (RocksDB's plugin/README.md): link or copy this checkout to
# plugin/sstfilter inside a RocksDB source tree, then build RocksDB with
#   ROCKSDB_PLUGINS=sstfilter make ...        or
#   cmake -DROCKSDB_PLUGINS=sstfilter ...
# RocksDB then registers "sstfilter.bloom" through sstfilter_FUNC whenever
# its ObjectRegistry starts, so its db_bench, ldb, sst_dump and any program
# linked with that librocksdb accept filter_policy=sstfilter.bloom:10.
#
# RocksDB's CMake reads the three variables below with regular expressions:
# keep each on one line. cmake/RocksDBPlugin.cmake adds the CMake side.
sstfilter_SOURCES = filter/banded/avx2.cc filter/banded/avx512.cc filter/banded/encoding.cc filter/banded/kernels.cc filter/banded/filter.cc filter/banded/math.cc filter/banded/neon.cc filter/banded/solver.cc filter/bloom_math.cc filter/filter_options.cc filter/option_fields.cc filter/option_values.cc filter/cache_local/avx2.cc filter/cache_local/avx512.cc filter/cache_local/neon.cc filter/cache_local/bloom.cc filter/cache_local/encoding.cc filter/cache_local/math.cc filter/cache_local/kernels.cc filter/compact/avx2.cc filter/compact/avx512.cc filter/compact/encoding.cc filter/compact/filter.cc filter/compact/math.cc filter/compact/kernels.cc filter/encodings.cc filter/filter_policy.cc filter/fp_target.cc filter/key_hash64.cc filter/compact/fuse_peeler.cc filter/leveldb/bloom.cc filter/leveldb/encoding.cc filter/leveldb/kernels.cc filter/memory_sizing.cc filter/simd_level.cc filter/cpu_model.cc filter/structured/tagged_bloom.cc filter/structured/describe.cc filter/plan/cache_budget.cc filter/plan/cache_plan_memo.cc filter/cache_model/cache_reads.cc filter/cache_model/key_popularity.cc filter/allocation/encoding_model_memo.cc filter/allocation/filters_by_run.cc filter/allocation/fp_curve.cc filter/allocation/level_encoding.cc filter/allocation/run_allocation.cc filter/allocation/run_reach.cc filter/allocation/share_of_gets.cc filter/cache_model/spread_fit.cc filter/cache_model/traffic_popularity.cc filter/allocation/steady_tree.cc filter/allocation/table_fp_rule.cc filter/allocation/table_fp_target.cc filter/plan/table_choice.cc filter/plan/plan_text.cc filter/allocation/traffic_parts.cc filter/allocation/tree_projection.cc filter/allocation/tree_runs.cc filter/allocation/tree_text.cc filter/allocation/tree_traffic.cc table/census/carried_traffic.cc table/census/census_handoff.cc table/census/census_listener.cc table/census/census_registry.cc table/census/census_tree.cc table/census/dir_file.cc table/census/file_worker.cc table/census/level_targets.cc table/census/live_reach.cc table/census/live_traffic.cc table/census/observed_hit_share.cc table/census/policy_guard.cc table/census/read_samples.cc table/census/recovery_tree.cc table/census/table_listing_fs.cc table/census/table_tree.cc table/census/traffic_file.cc table/census/traffic_writer.cc table/rocksdb/allocator_usable_size.cc table/rocksdb/bits_reader_factory.cc table/rocksdb/registration.cc table/rocksdb/rocksdb_filter_policy.cc table/rocksdb/rocksdb_plugin.cc table/rocksdb/table_sizing.cc
sstfilter_FUNC = sstfilter_RegisterRocksDbPlugin
sstfilter_HEADERS =
# make only (CMake gets the same from cmake/RocksDBPlugin.cmake): our own
# include root, and Abseil and xxHash through pkg-config.
sstfilter_CXXFLAGS = -I./plugin/sstfilter -DSSTFILTER_ROCKSDB_IN_TREE
sstfilter_PKGCONFIG_REQUIRES = absl_status absl_statusor absl_str_format absl_strings absl_span libxxhash

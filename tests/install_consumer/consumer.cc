// A user's program built against the installed sstfilter (CMake package or
// pkg-config): configures RocksDB's table through an option string naming
// sstfilter.bloom, writes and flushes keys, then checks that every key is
// found and that the filter answers nearly all absent keys. Exit 0 when so;
// otherwise 1 with the reason.
#include <cstdio>
#include <memory>
#include <string>

#include "filter/filter_options.h"
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/statistics.h"
#include "rocksdb/table.h"
#include "table/rocksdb/registration.h"

namespace {

int Fail(const std::string& why) {
  std::fprintf(stderr, "consumer: %s\n", why.c_str());
  return 1;
}

std::string Key(int i, const char* tag) { return std::string(tag) + std::to_string(i); }

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) return Fail("usage: consumer <new db dir>");
  // sstfilter::filter on its own: the option parser of the filter library.
  if (!sstfilter::ParsePolicyId("sstfilter.bloom:10:cache_local").ok()) {
    return Fail("ParsePolicyId rejected a valid id");
  }
  sstfilter::EnsureRocksDbFilterPoliciesRegistered();
  rocksdb::ConfigOptions config;
  config.ignore_unsupported_options = false;  // an unknown policy is an error
  rocksdb::BlockBasedTableOptions table;
  rocksdb::Status s = rocksdb::GetBlockBasedTableOptionsFromString(
      config, table, "filter_policy=sstfilter.bloom:10", &table);
  if (!s.ok()) return Fail("option string: " + s.ToString());

  rocksdb::Options options;
  options.create_if_missing = true;
  options.statistics = rocksdb::CreateDBStatistics();
  options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  std::unique_ptr<rocksdb::DB> db;
  {
    rocksdb::DB* raw = nullptr;
    s = rocksdb::DB::Open(options, argv[1], &raw);
    if (!s.ok()) return Fail("open: " + s.ToString());
    db.reset(raw);
  }
  constexpr int kKeys = 10000;
  for (int i = 0; i < kKeys && s.ok(); ++i) s = db->Put({}, Key(i, "k"), "v");
  if (s.ok()) s = db->Flush({});
  if (!s.ok()) return Fail("write: " + s.ToString());

  std::string value;
  for (int i = 0; i < kKeys; ++i) {
    if (!db->Get({}, Key(i, "k"), &value).ok()) return Fail("lost key " + Key(i, "k"));
  }
  for (int i = 0; i < kKeys; ++i) {
    if (!db->Get({}, Key(i, "absent"), &value).IsNotFound()) return Fail("found an absent key");
  }
  const uint64_t useful = options.statistics->getTickerCount(rocksdb::BLOOM_FILTER_USEFUL);
  std::printf("consumer: %d keys found, filter answered %llu of %d absent keys\n", kKeys,
              static_cast<unsigned long long>(useful), kKeys);
  return useful >= kKeys * 9 / 10 ? 0 : Fail("the filter answered too few absent keys");
}

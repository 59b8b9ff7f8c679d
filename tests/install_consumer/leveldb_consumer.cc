// A LevelDB user's program built against the installed sstfilter (CMake
// package, sstfilter::leveldb): plugs the policy into leveldb::Options in
// the three lines the header shows, writes and compacts keys, then checks
// that every key is found and that the policy's filter (LevelDB's own
// encoding, under LevelDB's own name) answers nearly all absent keys. Exit 0
// when so; otherwise 1 with the reason.
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "leveldb/db.h"
#include "leveldb/slice.h"
#include "table/leveldb/leveldb_filter_policy.h"

namespace {

int Fail(const std::string& why) {
  std::fprintf(stderr, "leveldb_consumer: %s\n", why.c_str());
  return 1;
}

std::string Key(int i, const char* tag) { return std::string(tag) + std::to_string(i); }

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) return Fail("usage: leveldb_consumer <new db dir>");
  auto policy = sstfilter::NewLevelDbFilterPolicyFromString("sstfilter.bloom:10");
  if (!policy.ok()) return Fail(std::string(policy.status().message()));
  leveldb::Options options;
  options.filter_policy = policy->get();
  options.create_if_missing = true;
  if (std::strcmp((*policy)->Name(), "leveldb.BuiltinBloomFilter2") != 0) {
    return Fail(std::string("unexpected policy name ") + (*policy)->Name());
  }

  std::unique_ptr<leveldb::DB> db;
  {
    leveldb::DB* raw = nullptr;
    leveldb::Status s = leveldb::DB::Open(options, argv[1], &raw);
    if (!s.ok()) return Fail("open: " + s.ToString());
    db.reset(raw);
  }
  constexpr int kKeys = 10000;
  for (int i = 0; i < kKeys; ++i) {
    if (!db->Put({}, Key(i, "k"), "v").ok()) return Fail("write failed");
  }
  db->CompactRange(nullptr, nullptr);
  std::string value;
  for (int i = 0; i < kKeys; ++i) {
    if (!db->Get({}, Key(i, "k"), &value).ok()) return Fail("lost key " + Key(i, "k"));
    if (!db->Get({}, Key(i, "absent"), &value).IsNotFound()) return Fail("found an absent key");
  }

  // The policy itself, as LevelDB's table builder and reader call it.
  std::vector<std::string> keys;
  for (int i = 0; i < kKeys; ++i) keys.push_back(Key(i, "k"));
  const std::vector<leveldb::Slice> slices(keys.begin(), keys.end());
  std::string filter;
  (*policy)->CreateFilter(slices.data(), kKeys, &filter);
  int matched = 0;
  for (int i = 0; i < kKeys; ++i) matched += (*policy)->KeyMayMatch(Key(i, "absent"), filter);
  std::printf("leveldb_consumer: %d keys found; filter matched %d of %d absent keys\n", kKeys,
              matched, kKeys);
  return matched <= kKeys / 20 ? 0 : Fail("the filter matched too many absent keys");
}

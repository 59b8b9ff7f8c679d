// sstfilter_query_loop: one filter, queried in a plain loop, for counting
// the instructions a query executes (tools/insn_count.sh runs it under
// qemu-user twice, at --queries=Q and 2Q, and divides the difference by Q).
//
//   sstfilter_query_loop --policy=sstfilter.bloom:10:cache_local --queries=20000 --absent
//   sstfilter_query_loop --policy=bloomfilter:10:false --batch=16
//
// The policy is any RocksDB filter policy string (ours resolvable): the
// loop goes through the FilterBitsReader a block-based table uses, so a
// query counts the virtual call, the key's hash and the probes. Query keys
// come from a fixed pool made before the loop, so the work that grows with
// --queries is the queries and the loop around them (a few instructions
// per query). Prints how many queries matched: with --absent, the FP rate.
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_format.h"
#include "bench/key_shapes.h"
#include "bench/rocksdb_reader_set.h"
#include "filter/encoding_id.h"
#include "tools/flags_usage.h"

ABSL_FLAG(std::string, policy, "sstfilter.bloom:10:cache_local",
          "RocksDB filter policy string, e.g. bloomfilter:10:false for FastLocalBloom");
ABSL_FLAG(int64_t, keys, 10000, "keys in the filter (> 0)");
ABSL_FLAG(int64_t, queries, 20000, "queries to run (>= 0)");
ABSL_FLAG(bool, absent, false, "query keys not in the filter (default: keys in it)");
ABSL_FLAG(int32_t, batch, 0,
          "keys per MayMatch(num_keys, ...) call; 0: one MayMatch(key) per query");
ABSL_FLAG(bool, list_encodings, false,
          "print our encodings' names, one a line, and exit (the rows tools/insn_count.sh counts)");

namespace {

using sstfilter::bench::KeySet;
using sstfilter::bench::KeyShape;

constexpr size_t kPool = 4096;  // Query keys, reused in turn.

int Fail(const std::string& message) {
  absl::FPrintF(stderr, "sstfilter_query_loop: %s\n", message);
  return 2;
}

// Queries `queries` keys of `pool` one at a time; returns the matches.
int64_t QuerySingle(rocksdb::FilterBitsReader& reader, const std::vector<rocksdb::Slice>& pool,
                    int64_t queries) {
  int64_t matches = 0;
  for (int64_t i = 0; i < queries; ++i) {
    matches += reader.MayMatch(pool[static_cast<size_t>(i) % kPool]);
  }
  return matches;
}

// Queries `queries` keys of `pool` `batch` at a time (queries rounded down
// to whole batches); returns the matches.
int64_t QueryBatched(rocksdb::FilterBitsReader& reader, std::vector<rocksdb::Slice>& pool,
                     int64_t queries, size_t batch) {
  std::vector<rocksdb::Slice*> pointers;
  for (rocksdb::Slice& key : pool) pointers.push_back(&key);
  std::unique_ptr<bool[]> out(new bool[batch]);
  int64_t matches = 0;
  for (int64_t done = 0; done + static_cast<int64_t>(batch) <= queries;
       done += static_cast<int64_t>(batch)) {
    const size_t start = static_cast<size_t>(done) % (kPool - kPool % batch);
    reader.MayMatch(static_cast<int>(batch), pointers.data() + start, out.get());
    for (size_t j = 0; j < batch; ++j) matches += out[j];
  }
  return matches;
}

}  // namespace

int main(int argc, char** argv) {
  sstfilter::SetToolUsage("bench/query_loop_main.cc",
                          "Queries one filter in a loop (for instruction counts).\n"
                          "  sstfilter_query_loop [--policy=P] [--keys=N] [--queries=Q] "
                          "[--absent] [--batch=B]\n"
                          "  sstfilter_query_loop --list_encodings");
  std::vector<char*> rest = absl::ParseCommandLine(argc, argv);
  if (rest.size() > 1) return Fail(absl::StrFormat("unexpected argument '%s'", rest[1]));
  if (absl::GetFlag(FLAGS_list_encodings)) {
    for (sstfilter::EncodingId id : sstfilter::AllEncodingIds()) {
      absl::PrintF("%s\n", sstfilter::EncodingName(id));
    }
    return 0;
  }
  const int64_t keys = absl::GetFlag(FLAGS_keys);
  const int64_t queries = absl::GetFlag(FLAGS_queries);
  const int32_t batch = absl::GetFlag(FLAGS_batch);
  if (keys <= 0) return Fail(absl::StrFormat("--keys=%d: need at least one key", keys));
  if (queries < 0) return Fail(absl::StrFormat("--queries=%d: need zero or more", queries));
  if (batch < 0 || static_cast<size_t>(batch) > kPool) {
    return Fail(absl::StrFormat("--batch=%d: need 0 to %d", batch, kPool));
  }
  auto policy = sstfilter::bench::PolicyFromString(absl::GetFlag(FLAGS_policy));
  if (!policy.ok()) return Fail(std::string(policy.status().message()));
  const KeySet members(KeyShape::kUserDecimal, 0, static_cast<size_t>(keys));
  auto filter = sstfilter::bench::RocksDbReaderSet::Create(**policy, members.keys(), 0, 16, 1);
  if (!filter.ok()) return Fail(std::string(filter.status().message()));
  // Absent keys: numbers past the members', same shape. The pool draws its
  // keys in a scattered order, so consecutive queries probe unrelated lines.
  const KeySet non_members(KeyShape::kUserDecimal, static_cast<uint64_t>(keys), kPool);
  const std::vector<std::string_view>& source =
      absl::GetFlag(FLAGS_absent) ? non_members.keys() : members.keys();
  std::vector<rocksdb::Slice> pool;
  for (size_t i = 0; i < kPool; ++i) {
    const std::string_view key = source[sstfilter::bench::Mix64(i) % source.size()];
    pool.emplace_back(key.data(), key.size());
  }
  rocksdb::FilterBitsReader& reader = (*filter)->reader(0);
  const int64_t matches = batch == 0
                              ? QuerySingle(reader, pool, queries)
                              : QueryBatched(reader, pool, queries, static_cast<size_t>(batch));
  absl::PrintF("%s: %d of %d queries matched (%d bytes)\n", absl::GetFlag(FLAGS_policy), matches,
               queries, (*filter)->filter_bytes());
  return 0;
}

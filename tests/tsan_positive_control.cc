// A deliberate data race through our filter code, built only under
// ThreadSanitizer (SSTFILTER_TSAN): one thread rebuilds a filter into a
// buffer (LevelDbBloomBuilder::FinishInto) while another queries the same
// bytes through LevelDbBloomReader, with nothing ordering the two. The test
// itself passes; tests/tsan_check.sh --expect-project-race requires that TSan
// reports the race and that the harness counts it as ours, proving that the
// harness fails a run on a real race in project code.
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "filter/leveldb/bloom.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace {

constexpr double kBitsPerKey = 10;
constexpr int kRounds = 50;

std::vector<std::string> Keys(int first, int n) {
  std::vector<std::string> keys;
  for (int i = first; i < first + n; ++i) keys.push_back("key" + std::to_string(i));
  return keys;
}

// Rebuilds the filter for a different key set into filter's bytes (same
// size: the same number of keys).
void RebuildInPlace(std::string* filter) {
  for (int round = 0; round < kRounds; ++round) {
    LevelDbBloomBuilder builder(kBitsPerKey);
    for (const std::string& key : Keys(round * 100, 100)) builder.AddKey(key);
    builder.FinishInto(filter->data());
  }
}

// Queries the bytes while they are rebuilt; the answers are meaningless.
int QueryWhileRebuilt(const std::string& filter) {
  const LevelDbBloomReader reader{std::string_view(filter)};
  int matches = 0;
  for (int round = 0; round < kRounds; ++round) {
    for (const std::string& key : Keys(0, 100)) matches += reader.MayMatch(key) ? 1 : 0;
  }
  return matches;
}

TEST(TsanPositiveControl, FilterRebuiltWhileQueried) {
  std::string filter;
  LevelDbBloomBuilder builder(kBitsPerKey);
  for (const std::string& key : Keys(0, 100)) builder.AddKey(key);
  builder.Finish(&filter);

  int matches = 0;
  std::thread writer(RebuildInPlace, &filter);
  std::thread reader([&filter, &matches] { matches = QueryWhileRebuilt(filter); });
  writer.join();
  reader.join();
  EXPECT_GE(matches, 0);
}

}  // namespace
}  // namespace sstfilter

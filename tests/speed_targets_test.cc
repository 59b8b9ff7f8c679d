// The micro benchmarks' speed targets (bench/speed_targets.h): declared per
// encoding by its id, at most once each, in EncodingId order; an encoding
// without a declaration has no targets (never another's).
#include "bench/speed_targets.h"

#include <set>
#include <string>

#include "filter/encodings.h"
#include "gtest/gtest.h"

namespace sstfilter::bench {
namespace {

TEST(SpeedTargetsTest, DeclaredOncePerEncodingOfTheList) {
  std::set<EncodingId> seen;
  size_t previous = 0;
  for (const SpeedTargets& t : AllSpeedTargets()) {
    ASSERT_TRUE(IsKnownEncoding(t.encoding)) << static_cast<int>(t.encoding);
    SCOPED_TRACE(EncodingName(t.encoding));
    EXPECT_TRUE(seen.insert(t.encoding).second) << "declared twice";
    EXPECT_GE(static_cast<size_t>(t.encoding), previous) << "out of EncodingId order";
    previous = static_cast<size_t>(t.encoding);
    EXPECT_EQ(SpeedTargetsFor(t.encoding), &t);
    std::set<std::string> cases;
    for (const CaseTarget& c : t.versus_fast_local_bloom) {
      EXPECT_TRUE(cases.insert(c.case_name).second) << c.case_name << " twice";
      EXPECT_GT(c.max_ratio, 0) << c.case_name;
    }
    EXPECT_GE(t.via_rocksdb_out_of_cache_single, 0);
    EXPECT_GE(t.via_rocksdb_other, 0);
  }
}

// Every encoding of the list either has its own declaration or none.
TEST(SpeedTargetsTest, UndeclaredMeansNone) {
  for (EncodingId encoding : AllEncodingIds()) {
    const SpeedTargets* t = SpeedTargetsFor(encoding);
    if (t != nullptr) {
      EXPECT_EQ(t->encoding, encoding) << EncodingName(encoding);
    }
  }
  EXPECT_EQ(SpeedTargetsFor(static_cast<EncodingId>(kNumEncodings)), nullptr);
  // LevelDB's encoding is the reference: its targets are against libleveldb
  // (RatioReporter::PrintTargets), none declared here.
  EXPECT_EQ(SpeedTargetsFor(EncodingId::kLevelDb), nullptr);
}

}  // namespace
}  // namespace sstfilter::bench

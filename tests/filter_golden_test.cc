// Filter bytes are a format: every encoding's bytes for fixed keys, and its
// reader's answers on those bytes, pinned by files in tests/golden/ written
// once on x86-64. The same files are checked on every architecture the
// tests run on (tools/dev arm64-test runs this under emulation), so a
// filter written on one is read alike on the other, and a change of bytes
// fails here until the files are rewritten on purpose (and the change says
// so: old bytes stay readable by the readers).
//
// For each encoding (the list in filter/encodings.h, so a new one fails
// until its files exist) and each case (keys "key0".."keyN-1" at a setting):
//   <encoding>_<N>keys_<bits>bpk.filter  the filter's bytes
//   <encoding>_<N>keys_<bits>bpk.fp      which of the absent keys
//                                        "absent0".."absent1999" the reader
//                                        of those bytes answers "may match"
// Rewrite them (after a deliberate change of bytes) with
//   SSTFILTER_WRITE_GOLDEN=1 build/tests/filter_golden_test
// and first move the files whose bytes change into tests/golden/earlier/:
// the bytes earlier builders wrote, which every reader still reads (the
// same names; their answers there are pinned too).
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "filter/encodings.h"
#include "gtest/gtest.h"

namespace sstfilter {
namespace {

constexpr int kAbsentKeys = 2000;

struct GoldenCase {
  int keys;
  double bits_per_key;
};

// A filter of a few keys (the encodings' small-filter paths), of 1000 keys
// at three settings, and a bigger one.
constexpr GoldenCase kCases[] = {{3, 10}, {1000, 6}, {1000, 10}, {1000, 16}, {30000, 10}};

std::string GoldenPath(std::string_view encoding, const GoldenCase& c, std::string_view ext) {
  return absl::StrFormat("%s/tests/golden/%s_%dkeys_%gbpk.%s", SSTFILTER_SOURCE_DIR, encoding,
                         c.keys, c.bits_per_key, ext);
}

bool Writing() {
  const char* w = std::getenv("SSTFILTER_WRITE_GOLDEN");
  return w != nullptr && std::string_view(w) == "1";
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void WriteFile(const std::string& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  ASSERT_TRUE(out.good()) << "could not write " << path;
}

template <typename E>
std::string Build(const GoldenCase& c) {
  typename E::Builder builder(c.bits_per_key);
  for (int i = 0; i < c.keys; ++i) builder.AddKey("key" + std::to_string(i));
  std::string filter;
  builder.Finish(&filter);
  return filter;
}

// The absent keys the reader of `filter` answers "may match" for, as text;
// every present key must match.
template <typename E>
std::string FalsePositives(std::string_view filter, const GoldenCase& c) {
  const typename E::Reader reader(filter);
  for (int i = 0; i < c.keys; ++i) {
    EXPECT_TRUE(reader.MayMatch("key" + std::to_string(i))) << "false negative: key" << i;
  }
  std::vector<int> fp;
  for (int i = 0; i < kAbsentKeys; ++i) {
    if (reader.MayMatch("absent" + std::to_string(i))) fp.push_back(i);
  }
  return absl::StrJoin(fp, " ") + "\n";
}

// Where two byte strings first differ, for the failure message.
std::string FirstDifference(std::string_view got, std::string_view want) {
  size_t i = 0;
  while (i < got.size() && i < want.size() && got[i] == want[i]) ++i;
  return absl::StrFormat("%d bytes built, %d in the file; first difference at byte %d",
                         got.size(), want.size(), i);
}

TEST(FilterGolden, BytesAndAnswersAreThePinnedOnes) {
  ForEachEncoding([&](auto encoding) {
    using E = decltype(encoding);
    for (const GoldenCase& c : kCases) {
      const std::string bytes_path = GoldenPath(E::kInfo.name, c, "filter");
      const std::string fp_path = GoldenPath(E::kInfo.name, c, "fp");
      SCOPED_TRACE(bytes_path);
      const std::string built = Build<E>(c);
      if (Writing()) {
        WriteFile(bytes_path, built);
        WriteFile(fp_path, FalsePositives<E>(built, c));
        continue;
      }
      const std::string pinned = ReadFile(bytes_path);
      ASSERT_FALSE(pinned.empty()) << "no golden file; write it with SSTFILTER_WRITE_GOLDEN=1";
      EXPECT_TRUE(built == pinned) << FirstDifference(built, pinned);
      // The reader on this machine reads the pinned bytes as the one that
      // wrote them did.
      EXPECT_EQ(FalsePositives<E>(pinned, c), ReadFile(fp_path));
    }
  });
}

// The fallback Bloom body (body kind 3) of the encodings that have one,
// which a default build does not write for these keys: build options force
// it (compact: every seed fails; banded: its temporary memory is over the
// limit).
// Files as above, named <encoding>_fallback_<N>keys_<bits>bpk.*.
constexpr GoldenCase kFallbackCases[] = {{1000, 10}, {1000, 16}};

template <typename E>
void ExpectPinnedFallback(typename E::Builder builder, const GoldenCase& c) {
  for (int i = 0; i < c.keys; ++i) builder.AddKey("key" + std::to_string(i));
  std::string built;
  builder.Finish(&built);
  ASSERT_EQ(builder.num_fallbacks(), 1u);
  const std::string name = absl::StrFormat("%s_fallback", E::kInfo.name);
  const std::string bytes_path = GoldenPath(name, c, "filter");
  SCOPED_TRACE(bytes_path);
  if (Writing()) {
    WriteFile(bytes_path, built);
    WriteFile(GoldenPath(name, c, "fp"), FalsePositives<E>(built, c));
    return;
  }
  const std::string pinned = ReadFile(bytes_path);
  ASSERT_FALSE(pinned.empty()) << "no golden file; write it with SSTFILTER_WRITE_GOLDEN=1";
  EXPECT_TRUE(built == pinned) << FirstDifference(built, pinned);
  EXPECT_EQ(FalsePositives<E>(pinned, c), ReadFile(GoldenPath(name, c, "fp")));
}

TEST(FilterGolden, FallbackBodiesAreThePinnedOnes) {
  CompactBuildOptions no_seeds;
  no_seeds.max_seeds = 0;
  BandedBuildOptions no_memory;
  no_memory.max_temp_bytes = 0;
  for (const GoldenCase& c : kFallbackCases) {
    ExpectPinnedFallback<CompactEncoding>(CompactFilterBuilder(c.bits_per_key, no_seeds), c);
    ExpectPinnedFallback<BandedEncoding>(BandedFilterBuilder(c.bits_per_key, no_memory), c);
  }
}

// Reads an earlier builder's file <encoding>_<N>keys_<bits>bpk.filter with
// that encoding's reader: every key matches, and the absent keys' answers
// are the pinned ones. False where no encoding has that name.
bool ExpectEarlierBytesRead(const std::filesystem::path& file) {
  const std::vector<std::string> parts = absl::StrSplit(file.stem().string(), '_');
  if (parts.size() < 3) return false;
  int keys = 0;
  if (!absl::SimpleAtoi(absl::StripSuffix(parts[parts.size() - 2], "keys"), &keys)) return false;
  const std::string name = absl::StrJoin(parts.begin(), parts.end() - 2, "_");
  const GoldenCase c{keys, 0};
  bool known = false;
  ForEachEncoding([&](auto encoding) {
    using E = decltype(encoding);
    if (name != E::kInfo.name) return;
    known = true;
    std::filesystem::path fp = file;
    EXPECT_EQ(FalsePositives<E>(ReadFile(file.string()), c),
              ReadFile(fp.replace_extension(".fp").string()));
  });
  return known;
}

TEST(FilterGolden, BytesEarlierBuildersWroteAreReadAlike) {
  const std::filesystem::path dir =
      std::filesystem::path(SSTFILTER_SOURCE_DIR) / "tests/golden/earlier";
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".filter") continue;
    SCOPED_TRACE(entry.path().string());
    EXPECT_TRUE(ExpectEarlierBytesRead(entry.path())) << "no encoding of that name";
    ++files;
  }
  EXPECT_GT(files, 0) << "no earlier bytes in " << dir;
}

}  // namespace
}  // namespace sstfilter

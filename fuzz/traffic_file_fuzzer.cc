// Fuzz target: the parser of the census's traffic file
// (table/census/traffic_file.h), which reads whatever a DB directory holds
// under that name.
//
// Seeds: LLVMFuzzerInitialize writes a file of each version (1-4; with
// and without the optional lines) into $SSTFILTER_FUZZ_SEED_DIR when set.
//
// On every input:
//   - ParseTrafficFile returns a Status and never crashes (ASan/UBSan);
//   - a refusal's message is printable ASCII (it goes to the DB's LOG);
//   - an accepted summary holds only what the format allows: a version of
//     1-4, shares and the hit share in [0, 1] and never -0, exposures
//     finite and at least 0 (version 3 on), an identity with no space or
//     newline, levels' moves (version 4) at levels 0-1000 and seconds of 0
//     or more;
//   - what FormatTrafficFile writes of it parses back to the same tables,
//     identity and moves, each number within FormatTrafficFile's 6
//     significant digits, and formatting that again gives the same text.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "fuzz/fuzz_util.h"
#include "table/census/traffic_file.h"

namespace sstfilter::fuzz {
namespace {

bool PrintableAscii(std::string_view text) {
  for (const char c : text) {
    if (c < 0x20 || c > 0x7e) return false;
  }
  return true;
}

bool ValidShare(double share) { return share >= 0 && share <= 1 && !std::signbit(share); }

void CheckAccepted(const TrafficSummary& s, std::string_view input) {
  SSTFILTER_FUZZ_CHECK(s.version >= 1 && s.version <= 4, s.version, " from ", Printable(input));
  SSTFILTER_FUZZ_CHECK(!s.hit_share.has_value() || ValidShare(*s.hit_share), *s.hit_share);
  SSTFILTER_FUZZ_CHECK(s.hit_share == std::nullopt || s.version >= 2, "hit_share in v1");
  SSTFILTER_FUZZ_CHECK(s.db_identity.find_first_of(" \n") == std::string::npos,
                       Printable(s.db_identity));
  SSTFILTER_FUZZ_CHECK(s.db_identity.empty() || s.version >= 3, "db line before v3");
  for (const auto& [number, share] : s.tables) {
    SSTFILTER_FUZZ_CHECK(ValidShare(share), number, " ", share, " from ", Printable(input));
  }
  SSTFILTER_FUZZ_CHECK(s.exposures.empty() || s.version >= 3, "exposures before v3");
  SSTFILTER_FUZZ_CHECK(s.level_moves.empty() || s.version >= 4, "move lines before v4");
  for (const auto& [level, move] : s.level_moves) {
    SSTFILTER_FUZZ_CHECK(level >= 0 && level <= 1000 && move.unix_seconds >= 0, level, " ",
                         move.unix_seconds, " from ", Printable(input));
  }
  for (const auto& [number, exposure] : s.exposures) {
    SSTFILTER_FUZZ_CHECK(std::isfinite(exposure) && exposure >= 0, number, " ", exposure);
    SSTFILTER_FUZZ_CHECK(s.tables.count(number) == 1, number, " has an exposure, no share");
  }
}

// Whether b is a within FormatTrafficFile's %.6g.
bool SixDigits(double a, double b) { return std::fabs(a - b) <= 1e-5 * std::fabs(a) + 1e-300; }

void CheckRoundTrip(const TrafficSummary& s) {
  const std::string text = FormatTrafficFile(s);
  const absl::StatusOr<TrafficSummary> again = ParseTrafficFile(text);
  SSTFILTER_FUZZ_CHECK(again.ok(), again.status().ToString(), " of ", Printable(text));
  SSTFILTER_FUZZ_CHECK(again->version == 4, again->version);
  SSTFILTER_FUZZ_CHECK(again->level_moves == s.level_moves, again->level_moves.size());
  SSTFILTER_FUZZ_CHECK(again->db_identity == s.db_identity, Printable(again->db_identity));
  SSTFILTER_FUZZ_CHECK(again->hit_share.has_value() == s.hit_share.has_value(), "hit_share");
  if (s.hit_share) SSTFILTER_FUZZ_CHECK(SixDigits(*s.hit_share, *again->hit_share), *s.hit_share);
  SSTFILTER_FUZZ_CHECK(again->tables.size() == s.tables.size(), again->tables.size());
  for (const auto& [number, share] : s.tables) {
    const auto it = again->tables.find(number);
    SSTFILTER_FUZZ_CHECK(it != again->tables.end(), number, " lost");
    SSTFILTER_FUZZ_CHECK(SixDigits(share, it->second), number, " ", share, " ", it->second);
    const auto exposure = s.exposures.find(number);
    const double was = exposure == s.exposures.end() ? 0.0 : exposure->second;
    SSTFILTER_FUZZ_CHECK(SixDigits(was, again->exposures.at(number)), number, " exposure");
  }
  SSTFILTER_FUZZ_CHECK(FormatTrafficFile(*again) == text, Printable(text));
}

void WriteSeeds() {
  const char* dir = std::getenv("SSTFILTER_FUZZ_SEED_DIR");
  if (dir == nullptr || *dir == '\0') return;
  const char* seeds[] = {
      "sstfilter traffic 1\n7 0.5\n9 0.25\n",
      "sstfilter traffic 2\nhit_share 0.6\n7 0.5\n9 0.25\n",
      "sstfilter traffic 2\n12 1\n",
      "sstfilter traffic 3\ndb 4f9a-11\nhit_share 0\n7 0.5 120.5\n9 0.25 3e+06\n",
      "sstfilter traffic 3\n7 0.125 0\n",
      ("sstfilter traffic 4\ndb 4f9a-11\nhit_share 0.5\nmove 5 more 1796342400\n"
       "move 6 fewer 1796342460\n7 0.5 120.5\n"),
  };
  int i = 0;
  for (const char* seed : seeds) {
    std::ofstream(absl::StrCat(dir, "/seed", i++), std::ios::binary) << seed;
  }
}

}  // namespace
}  // namespace sstfilter::fuzz

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  sstfilter::fuzz::WriteSeeds();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace sstfilter::fuzz;
  const ExactBytes file(std::string_view(reinterpret_cast<const char*>(data), size));
  const absl::StatusOr<sstfilter::TrafficSummary> parsed = sstfilter::ParseTrafficFile(file.view());
  if (!parsed.ok()) {
    const std::string message(parsed.status().message());
    SSTFILTER_FUZZ_CHECK(PrintableAscii(message), Printable(message));
    return 0;
  }
  CheckAccepted(*parsed, file.view());
  CheckRoundTrip(*parsed);
  return 0;
}

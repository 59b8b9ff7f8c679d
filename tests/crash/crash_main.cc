// sstfilter_crash: the two halves of the crash test (crash_test.sh runs them).
//
//   sstfilter_crash --mode=write  --db=DIR --progress=FILE --table_options=OPTS [--seed=N]
//       writes until killed (crash_write.h)
//   sstfilter_crash --mode=verify --db=DIR --progress=FILE --table_options=OPTS
//       reopens and checks the DB (crash_verify.h); prints one line
//       "verify: key=value ..." and exits 1 if any invariant failed
//
//   sstfilter_crash --mode=encodings
//       prints the name of each encoding of the list (filter/encodings.h), one a
//       line: the formats crash_test.sh picks from
//
// OPTS is a RocksDB block-based table option string, e.g.
// "filter_policy=sstfilter.bloom:10:cache_local;partition_filters=true;
//  index_type=kTwoLevelIndexSearch;metadata_block_size=512".
// Exit status: 0 passed, 1 verification failed, 2 bad flags or an I/O error.
#include <cstdint>
#include <string>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_format.h"
#include "filter/encoding_id.h"
#include "tests/crash/crash_verify.h"
#include "tests/crash/crash_write.h"
#include "tools/flags_usage.h"

ABSL_FLAG(std::string, mode, "", "write, verify or encodings");
ABSL_FLAG(std::string, db, "", "DB directory");
ABSL_FLAG(std::string, progress, "", "File holding the writer's acknowledged step count");
ABSL_FLAG(std::string, table_options, "filter_policy=sstfilter.bloom:10",
          "RocksDB block-based table options (must configure sstfilter.bloom)");
ABSL_FLAG(uint64_t, seed, 1, "Writer: seed of the compacted key ranges");
ABSL_FLAG(int, batch_steps, 16, "Writer: keys per synced WriteBatch");
ABSL_FLAG(uint64_t, max_steps, 0, "Writer: stop after this many steps (0: never)");

namespace sstfilter::crash {
namespace {

constexpr int kExitFailed = 1;
constexpr int kExitError = 2;

int Error(const absl::Status& status) {
  absl::FPrintF(stderr, "sstfilter_crash: %s\n", status.ToString());
  return kExitError;
}

int Write() {
  WriteConfig config;
  config.db = absl::GetFlag(FLAGS_db);
  config.progress = absl::GetFlag(FLAGS_progress);
  config.table_options = absl::GetFlag(FLAGS_table_options);
  config.seed = absl::GetFlag(FLAGS_seed);
  config.max_steps = absl::GetFlag(FLAGS_max_steps);
  const int batch_steps = absl::GetFlag(FLAGS_batch_steps);
  if (batch_steps < 1) {
    return Error(absl::InvalidArgumentError(
        absl::StrFormat("--batch_steps=%d must be at least 1", batch_steps)));
  }
  config.batch_steps = static_cast<uint64_t>(batch_steps);
  absl::Status s = RunWriter(config);
  return s.ok() ? 0 : Error(s);
}

int Verify() {
  VerifyConfig config;
  config.db = absl::GetFlag(FLAGS_db);
  config.progress = absl::GetFlag(FLAGS_progress);
  config.table_options = absl::GetFlag(FLAGS_table_options);
  absl::StatusOr<VerifyResult> result = RunVerifier(config);
  if (!result.ok()) return Error(result.status());
  absl::PrintF("verify: %s\n", result->Summary());
  return result->Passed() ? 0 : kExitFailed;
}

int Run() {
  const std::string mode = absl::GetFlag(FLAGS_mode);
  if (mode == "encodings") {  // For crash_test.sh: one name a line.
    for (EncodingId encoding : AllEncodingIds()) absl::PrintF("%s\n", EncodingName(encoding));
    return 0;
  }
  if (absl::GetFlag(FLAGS_db).empty() || absl::GetFlag(FLAGS_progress).empty()) {
    return Error(absl::InvalidArgumentError("--db and --progress are required"));
  }
  if (mode == "write") return Write();
  if (mode == "verify") return Verify();
  return Error(absl::InvalidArgumentError(
      absl::StrFormat("--mode='%s' is unknown; expected 'write', 'verify' or 'encodings'", mode)));
}

}  // namespace
}  // namespace sstfilter::crash

int main(int argc, char** argv) {
  sstfilter::SetToolUsage("tests/crash/", "Crash test writer and verifier; see crash_test.sh.");
  absl::ParseCommandLine(argc, argv);
  return sstfilter::crash::Run();
}

#include "table/census/traffic_writer.h"

#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "rocksdb/env.h"
#include "table/census/dir_file.h"

namespace sstfilter {

namespace {

// Removes the leftovers of interrupted writes beside the traffic file.
void SweepFreshFiles(const TrafficFileSite& site) {
  const size_t slash = site.path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : site.path.substr(0, slash);
  const std::string legacy = absl::StrCat(kTrafficFileName, ".tmp");
  std::vector<std::string> names;
  if (!site.env->GetChildren(dir, &names).ok()) return;
  for (const std::string& name : names) {
    if (name == legacy || IsFreshFileOf(name, kTrafficFileName)) {
      // A directory of that name stays: DeleteFile removes no directory.
      site.env->DeleteFile(absl::StrCat(dir, "/", name)).PermitUncheckedError();
    }
  }
}

}  // namespace

void WriteTrafficSummary(const TrafficFileSite& site, const std::string& text,
                         TrafficWrites* writes) {
  if (!writes->swept) {
    SweepFreshFiles(site);
    writes->swept = true;
  }
  const absl::Status written = ReplaceFile(site.env, site.path, text);
  const std::string error = written.ok() ? "" : PrintableExcerpt(written.message(), 400);
  if (!error.empty() && error != writes->last_error) {
    rocksdb::Log(rocksdb::InfoLogLevel::WARN_LEVEL, site.log.get(),
                 "sstfilter census: the traffic summary was not written (the advisor and the "
                 "DB's next instance go without it): %s",
                 error.c_str());
  }
  writes->last_error = error;
}

}  // namespace sstfilter

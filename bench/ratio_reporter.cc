#include "bench/ratio_reporter.h"

#include <algorithm>
#include <cstdio>

#include <unistd.h>

#include "absl/strings/str_format.h"

namespace sstfilter::bench {
namespace {

// Ratio "other / reference" as text, "-" when either is missing.
std::string Ratio(double other, double reference) {
  if (other <= 0 || reference <= 0) return "-";
  return absl::StrFormat("%.2fx", other / reference);
}

}  // namespace

RatioReporter::RatioReporter(std::vector<std::string> kinds, std::string header)
    : ConsoleReporter(isatty(fileno(stdout)) ? OO_ColorTabular : OO_Tabular),
      kinds_(std::move(kinds)),
      header_(std::move(header)) {}

void RatioReporter::ReportRuns(const std::vector<Run>& reports) {
  ConsoleReporter::ReportRuns(reports);
  for (const Run& run : reports) {
    if (run.error_occurred || run.run_type != Run::RT_Iteration) continue;
    const std::string& name = run.run_name.function_name;
    const size_t slash = name.rfind('/');
    if (slash == std::string::npos) continue;
    const std::string case_name = name.substr(0, slash);
    const std::string kind = name.substr(slash + 1);
    if (std::find(cases_.begin(), cases_.end(), case_name) == cases_.end()) {
      cases_.push_back(case_name);
    }
    Cell& cell = cells_[case_name][kind];
    auto counter = [&run](const char* key, double fallback) {
      auto it = run.counters.find(key);
      return it == run.counters.end() ? fallback : it->second.value;
    };
    cell.ns_per_key = counter(kPerKeyCounter, 0) * 1e9;
    cell.match = counter(kMatchCounter, -1);
    cell.bits_per_key = counter(kBitsPerKeyCounter, -1);
  }
}

double RatioReporter::NsPerKey(const std::string& case_name,
                               const std::string& kind) const {
  auto c = cells_.find(case_name);
  if (c == cells_.end()) return 0;
  auto k = c->second.find(kind);
  return k == c->second.end() ? 0 : k->second.ns_per_key;
}

void RatioReporter::PrintTable() const {
  const std::string& ref = kinds_.front();
  std::string out = absl::StrFormat(
      "\nSummary: ns per key (CPU time); (r) = that kind / %s, above 1.00x means %s is faster\n%s\n",
      ref, ref, header_);
  out += absl::StrFormat("%-28s", "case");
  for (const std::string& kind : kinds_) out += absl::StrFormat(" %18s", kind);
  out += "\n";
  for (const std::string& case_name : cases_) {
    out += absl::StrFormat("%-28s", case_name);
    const double reference = NsPerKey(case_name, ref);
    for (const std::string& kind : kinds_) {
      const double ns = NsPerKey(case_name, kind);
      if (ns <= 0) {
        out += absl::StrFormat(" %18s", "-");
      } else if (kind == ref) {
        out += absl::StrFormat(" %18.2f", ns);
      } else {
        out += absl::StrFormat(" %10.2f (%5s)", ns, Ratio(ns, reference));
      }
    }
    out += "\n";
  }
  // Filter size and the FP rate seen by the in-cache absent queries.
  auto extra_row = [&](const char* label, const std::string& case_name, bool bits) {
    auto c = cells_.find(case_name);
    if (c == cells_.end()) return;
    out += absl::StrFormat("%-28s", label);
    for (const std::string& kind : kinds_) {
      auto k = c->second.find(kind);
      const double v = k == c->second.end() ? -1
                       : bits                 ? k->second.bits_per_key
                                              : k->second.match * 100;
      out += v < 0 ? absl::StrFormat(" %18s", "-") : absl::StrFormat(" %18.3f", v);
    }
    out += "\n";
  };
  extra_row("filter bits/key", "Build", true);
  extra_row("FP % (InCache/absent)", "InCache/absent", false);
  std::fputs(out.c_str(), stdout);
}

void RatioReporter::PrintTargets() const {
  const std::string& ref = kinds_.front();
  std::string out = absl::StrFormat("\nSpeed targets for %s:\n", ref);
  auto line = [&out](const std::string& what, double ratio, double target) {
    if (ratio <= 0) {
      out += absl::StrFormat("  %-62s  not measured in this run\n", what);
      return;
    }
    out += absl::StrFormat("  %-62s %5.2fx (target >= %.1fx) %s\n", what, ratio,
                           target, ratio >= target ? "MET" : "MISSED");
  };
  auto speedup = [this](const std::string& slow_case, const std::string& slow_kind,
                        const std::string& fast_case, const std::string& fast_kind) {
    const double slow = NsPerKey(slow_case, slow_kind);
    const double fast = NsPerKey(fast_case, fast_kind);
    return slow > 0 && fast > 0 ? slow / fast : 0.0;
  };
  for (const char* which : {"present", "absent"}) {
    const std::string c = std::string("InCache/") + which;
    line("query in cache (" + std::string(which) + ") vs libleveldb KeyMayMatch",
         speedup(c, "libleveldb", c, ref), 1.3);
  }
  line("build vs libleveldb CreateFilter", speedup("Build", "libleveldb", "Build", ref), 1.5);
  for (const char* b : {"8", "16", "32"}) {
    const std::string batched = std::string("OutOfCache/batch") + b + "/batched";
    line(std::string("out of cache, batch of ") + b + ": batched vs one by one",
         speedup(std::string("OutOfCache/batch") + b + "/loop", ref, batched, ref), 1.5);
    line(std::string("out of cache, batch of ") + b + ": batched vs single random query",
         speedup("OutOfCache/absent", ref, batched, ref), 1.5);
  }
  std::fputs(out.c_str(), stdout);
}

void RatioReporter::PrintCacheLocalTargets() const {
  // The cache-local encoding's time as a fraction of RocksDB's
  // FastLocalBloom (format_version 5) on the same keys; lower is better.
  constexpr char kOurs[] = "sst_cachelocal";
  constexpr char kPeer[] = "rocksdb_fv5";
  std::string out = absl::StrFormat("\nCache-local targets for %s (time / %s):\n", kOurs, kPeer);
  auto line = [&](const std::string& case_name, double target) {
    const double ours = NsPerKey(case_name, kOurs);
    const double peer = NsPerKey(case_name, kPeer);
    if (ours <= 0 || peer <= 0) {
      out += absl::StrFormat("  %-62s  not measured in this run\n", case_name);
      return;
    }
    const double ratio = ours / peer;
    out += absl::StrFormat("  %-62s %5.2fx (target <= %.1fx) %s\n", case_name, ratio,
                           target, ratio <= target ? "MET" : "MISSED");
  };
  for (const char* c : {"InCache/present", "InCache/absent", "InCache/batch8/batched",
                        "InCache/batch32/batched"}) {
    line(c, 0.8);
  }
  for (const char* c : {"OutOfCache/present", "OutOfCache/absent"}) line(c, 1.0);
  for (const char* c : {"OutOfCache/batch8/batched", "OutOfCache/batch16/batched",
                        "OutOfCache/batch32/batched"}) {
    line(c, 0.8);
  }
  line("Build", 1.0);
  std::fputs(out.c_str(), stdout);
}

void RatioReporter::Finalize() {
  ConsoleReporter::Finalize();
  if (kinds_.empty() || cases_.empty()) return;
  PrintTable();
  PrintTargets();
  PrintCacheLocalTargets();
  std::fflush(stdout);
}

}  // namespace sstfilter::bench

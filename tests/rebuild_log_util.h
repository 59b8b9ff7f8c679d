// What the rebuild loop's LOG lines (table/census/census_listener_rebuilds.cc)
// say it rewrote, for the DB tests of the loop.
#ifndef SSTFILTER_TESTS_REBUILD_LOG_UTIL_H_
#define SSTFILTER_TESTS_REBUILD_LOG_UTIL_H_

#include <regex>
#include <set>
#include <string>
#include <vector>

namespace sstfilter {
namespace testing {

// The file numbers of the tables the loop's rewrites wrote, as its
// "rebuilt ..., #N with B bits/key" lines say.
inline std::set<std::string> RewriteOutputs(const std::vector<std::string>& lines) {
  const std::regex written(R"(, #([0-9]+) with [0-9.]+ bits/key)");
  std::set<std::string> outputs;
  for (const std::string& line : lines) {
    for (auto it = std::sregex_iterator(line.begin(), line.end(), written);
         it != std::sregex_iterator(); ++it) {
      outputs.insert((*it)[1].str());
    }
  }
  return outputs;
}

// The loop's lines among `lines` (its reckonings and rewrites), for a
// failure's message.
inline std::string LoopLines(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) {
    if (line.find("sstfilter: rebuil") != std::string::npos) text += line + "\n";
  }
  return text;
}

}  // namespace testing
}  // namespace sstfilter

#endif  // SSTFILTER_TESTS_REBUILD_LOG_UTIL_H_

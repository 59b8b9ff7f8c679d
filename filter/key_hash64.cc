#include "filter/key_hash64.h"

namespace sstfilter {

uint64_t KeyHash64OutOfLine(std::string_view key) { return XXH3_64bits(key.data(), key.size()); }

}  // namespace sstfilter

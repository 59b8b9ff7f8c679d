// Does not compile, on purpose: an encoding whose reader lacks HashMayMatch,
// checked against the contract. encoding_contract_test.sh builds it and
// expects the one static_assert naming that member, and no other.
#include "filter/encodings.h"

namespace sstfilter {
namespace {

class ReaderWithoutHashMayMatch : public LevelDbBloomReader {
 public:
  using LevelDbBloomReader::LevelDbBloomReader;
  void HashMayMatch() = delete;  // Hides the base's.
};

using Probe = Encoding<LevelDbBloomBuilder, ReaderWithoutHashMayMatch, kLevelDbEncodingInfo,
                       EncodingId::kLevelDb>;
static_assert(CheckEncodingContract<Probe>());

}  // namespace
}  // namespace sstfilter

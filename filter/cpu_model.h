// What CPU this is, for benchmark reports (which kernels it runs is
// filter/simd_level.h).
#ifndef SSTFILTER_FILTER_CPU_MODEL_H_
#define SSTFILTER_FILTER_CPU_MODEL_H_

#include <string>

namespace sstfilter {

// The CPU, for benchmark reports: its brand string, family and model, and
// for AMD parts the core generation they denote, e.g. "AMD EPYC 7B13
// (family 0x19 model 0x1: Zen 3)". Virtual machines may shorten the brand
// string ("AMD EPYC"); family and model still tell the core. On 64-bit ARM
// (Linux): the implementer and part of its MIDR_EL1, named where known,
// e.g. "ARM Neoverse N1 (implementer 0x41 part 0xd0c)".
std::string CpuModelName();

namespace cpu_model_internal {
// The core generation of an AMD family and model ("Zen 3"), empty for a
// model this table does not list.
std::string AmdCoreName(unsigned family, unsigned model);
// An ARM core's name from its MIDR_EL1 implementer and part numbers
// ("Neoverse N1"), empty for a part this table does not list.
std::string ArmCoreName(unsigned implementer, unsigned part);
// The description CpuModelName gives for a MIDR_EL1 value.
std::string ArmCpuName(unsigned long long midr);
}  // namespace cpu_model_internal

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_CPU_MODEL_H_

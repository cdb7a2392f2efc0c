// libFuzzer entry point of the summary target (built with -Dfuzzer=true and clang).
#include "product_fuzz_targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) { return fuzz_summary(data, size); }

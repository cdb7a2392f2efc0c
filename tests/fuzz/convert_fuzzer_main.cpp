// libFuzzer entry point of the convert target (built with -Dfuzzer=true and clang).
#include "product_fuzz_targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) { return fuzz_convert(data, size); }

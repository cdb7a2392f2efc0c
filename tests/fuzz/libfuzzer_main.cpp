// libFuzzer entry point (built with -Dfuzzer=true and clang).
#include "decoder_fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) { return fuzz_decoder(data, size); }

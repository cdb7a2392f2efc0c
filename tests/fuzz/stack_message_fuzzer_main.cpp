// libFuzzer entry point of the stack-sample decoder (built with -Dfuzzer=true and clang).
#include "stack_message_fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fuzz_stack_messages(data, size);
}

#include "stack_message_fuzz_target.hpp"

#include <cstdlib>
#include <string_view>

#include "analysis/stack_profiler/frame_order.hpp"
#include "analysis/stack_profiler/stack_assembler.hpp"

using namespace el2fx::stack_profiler;

int fuzz_stack_messages(const std::uint8_t* data, std::size_t size) {
    StackAssembler assembler;
    FrameOrder order;
    std::uint64_t time = 0, samples = 0;
    std::size_t at = 0;
    while (size - at >= 3) {
        const std::uint8_t selector = data[at];
        const std::size_t length = std::min<std::size_t>((std::size_t{data[at + 1]} << 8) | data[at + 2], size - at - 3);
        const std::string_view payload(reinterpret_cast<const char*>(data + at + 3), length);
        at += 3 + length;
        for (Layout l : {Layout::unknown, Layout::v0_1, Layout::v0_3}) {
            const Message m = decode_message(payload, l);
            if (m.kind != MessageKind::call_stack) continue;
            EntryReader reader(m.entries, m.layout != Layout::unknown ? m.layout : l == Layout::unknown ? Layout::v0_3 : l);
            Entry e;
            std::size_t n = 0;
            while (reader.next(e)) ++n;
            if (n != m.count) std::abort();  // a call_stack message holds exactly its count
        }
        time += selector & 0x0F;
        if (const AssembledSample* s = assembler.message(time, payload)) {
            ++samples;
            order.prove(assembler.layout());
            order.sample(s->thread, s->entries);
            if (s->entries.size() > kMaxStackEntries) std::abort();
        }
        if (selector == 0xFF) assembler.finish();
    }
    assembler.finish();
    const AssemblerCounts& c = assembler.counts();
    if (c.samples != samples || c.empty_samples > c.samples) std::abort();
    return 0;
}

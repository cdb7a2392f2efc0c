#include "decoder_fuzz_target.hpp"

#include <string>

#include <cstdlib>

#include "eventlog/block_index.hpp"
#include "eventlog/byte_source.hpp"
#include "eventlog/range_index.hpp"
#include "eventlog/push_decoder.hpp"
#include "eventlog/show_text.hpp"
#include "eventlog/time_ordered_reader.hpp"
#include "memory_file.hpp"
#include "util/error.hpp"

namespace {

class PrintingSink : public el2fx::eventlog::EventSink {
public:
    void on_header(const el2fx::eventlog::Header& h) override {
        header = h;
        el2fx::eventlog::append_header_text(text, header);
    }
    void on_event(const el2fx::eventlog::Event& event) override {
        el2fx::eventlog::append_event_text(text, event, header);
        if (text.size() > (1 << 16)) text.clear();
    }
    el2fx::eventlog::Header header;
    std::string text;
};

void push_decode(const std::uint8_t* data, std::size_t size) {
    PrintingSink sink;
    el2fx::Diagnostics diagnostics;
    el2fx::eventlog::PushDecoder decoder(sink, diagnostics);
    try {
        // Chunk sizes vary with the data so that records straddle chunk ends.
        std::size_t step = 1 + (size ? data[size / 2] % 97 : 0);
        for (std::size_t i = 0; i < size; i += step) decoder.feed(data + i, std::min(step, size - i));
        decoder.finish();
    } catch (const el2fx::Error&) {}
}

void ordered_decode(const std::uint8_t* data, std::size_t size) {
    el2fx::fuzz::MemoryFile file(data, size);
    if (!file.ok()) return;
    try {
        el2fx::eventlog::InputFile input(file.path());
        el2fx::Diagnostics diagnostics;
        el2fx::eventlog::TimeOrderedReader reader(input, diagnostics);
        std::string text;
        while (const el2fx::eventlog::Event* e = reader.next()) {
            el2fx::eventlog::append_event_text(text, *e, reader.header());
            if (text.size() > (1 << 16)) text.clear();
        }
    } catch (const el2fx::Error&) {}
}

// The index from block markers accepts only what decoding indexes the same way and has nothing
// to say of but how it framed records: anything else is a defect (abort).
void index_agreement(const std::uint8_t* data, std::size_t size) {
    el2fx::fuzz::MemoryFile file(data, size);
    if (!file.ok()) return;
    std::optional<el2fx::eventlog::RangeIndex> fast;
    el2fx::Diagnostics fast_diagnostics;
    try {
        el2fx::eventlog::InputFile input(file.path());
        fast = el2fx::eventlog::index_by_blocks(input, fast_diagnostics);
    } catch (const el2fx::Error&) {
        return;
    }
    if (!fast) {
        if (fast_diagnostics.total() != 0) std::abort();  // a declined log's counts are decoding's to give
        return;
    }
    el2fx::Diagnostics diagnostics;
    el2fx::eventlog::RangeIndex decoded;
    try {
        el2fx::eventlog::InputFile input(file.path());
        decoded = el2fx::eventlog::index_by_decoding(input, diagnostics);
    } catch (const el2fx::Error&) {
        std::abort();  // accepted, yet not decodable
    }
    const el2fx::eventlog::StreamEnd& end = decoded.stream_end;
    // How a variable-size record was framed (record_framing.hpp) is remarked on, not a problem:
    // the index from block markers frames it the same way (the ranges must be equal) and
    // counts it alike.
    const std::uint64_t framing_remarks = diagnostics.count(el2fx::Diagnostic::declared_size_too_large) +
                                          diagnostics.count(el2fx::Diagnostic::payload_longer_than_known);
    if (diagnostics.total() != framing_remarks || fast_diagnostics.total() != framing_remarks ||
        fast_diagnostics.count(el2fx::Diagnostic::declared_size_too_large) !=
            diagnostics.count(el2fx::Diagnostic::declared_size_too_large) || end.truncated_at || !end.lost.empty() || end.bytes != fast->stream_end.bytes ||
        !(decoded.ranges == fast->ranges) || decoded.header.types().size() != fast->header.types().size())
        std::abort();
}

}  // namespace

int fuzz_decoder(const std::uint8_t* data, std::size_t size) {
    push_decode(data, size);
    ordered_decode(data, size);
    index_agreement(data, size);
    return 0;
}

// Test helpers: decode bytes and keep what came out, with owned strings.
#pragma once

#include <string>
#include <vector>

#include "eventlog/push_decoder.hpp"
#include "eventlog/show_text.hpp"

namespace el2fx::testing {

struct Seen {
    std::uint64_t time, offset;
    std::uint16_t tag;
    std::optional<eventlog::CapNo> cap;
    std::size_t payload_index;
    std::string text;  // the ghc-events line, which owns a copy of every string field

    bool operator==(const Seen&) const = default;
};

class CollectingSink : public eventlog::EventSink {
public:
    void on_event(const eventlog::Event& e) override {
        std::string line;
        eventlog::append_event_text(line, e);
        events.push_back(Seen{e.time, e.offset, e.tag, e.cap, e.payload.index(), line});
        if (keep_last) last = e;  // views are only valid during this call; tests copy what they need
        on_each(e);
    }
    virtual void on_each(const eventlog::Event&) {}
    std::vector<Seen> events;
    bool keep_last = false;
    eventlog::Event last;
};

// Feeds `bytes` in pieces of `chunk` bytes (0: all at once) and finishes.
inline void feed_all(eventlog::PushDecoder& decoder, const std::string& bytes, std::size_t chunk = 0) {
    auto* p = reinterpret_cast<const std::uint8_t*>(bytes.data());
    if (chunk == 0) chunk = bytes.size() ? bytes.size() : 1;
    for (std::size_t i = 0; i < bytes.size(); i += chunk) decoder.feed(p + i, std::min(chunk, bytes.size() - i));
    decoder.finish();
}

}  // namespace el2fx::testing

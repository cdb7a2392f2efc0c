#include "analysis/threading/spans_text.hpp"

#include "analysis/threading/stop_status_text.hpp"

namespace el2fx::analysis {
namespace {

void append_range(std::string& out, std::uint64_t start, std::uint64_t end) {
    out += std::to_string(start);
    out += '-';
    out += std::to_string(end);
    out += ": ";
}

void append_activity(std::string& out, const CapabilityActivity& a) {
    switch (a.state) {
        case CapabilityState::idle: out += "idle"; break;
        case CapabilityState::gc: out += "gc"; break;
        case CapabilityState::mutator: out += "mutator thread " + std::to_string(a.thread); break;
    }
}

void append_activity(std::string& out, const ThreadActivity& a) {
    if (a.state == ThreadState::running)
        out += "running on cap " + std::to_string(a.cap);
    else
        out += block_reason_text(a.reason);
}

}  // namespace

void write_spans_text(std::string& out, const ThreadingResult& result) {
    // The driver already keeps capabilities, threads and each one's spans in order.
    for (const CapabilityTimeline& cap : result.capabilities) {
        for (const CapabilitySpan& span : cap.spans) {
            out += "cap " + std::to_string(cap.cap) + ": ";
            append_range(out, span.start, span.end);
            append_activity(out, span.activity);
            out += '\n';
        }
    }
    for (const ThreadTimeline& thread : result.threads) {
        for (const ThreadStateSpan& span : thread.spans) {
            out += "thread " + std::to_string(thread.thread) + ": ";
            append_range(out, span.start, span.end);
            append_activity(out, span.activity);
            out += '\n';
        }
    }
}

}  // namespace el2fx::analysis

#include "convert/profile_context.hpp"

#include <algorithm>

namespace el2fx::convert {

std::optional<fxprof::ThreadHandle> ProfileContext::capability_track(eventlog::CapNo cap) const {
    auto it = capability_tracks.find(cap);
    if (it == capability_tracks.end()) return std::nullopt;
    return it->second;
}

std::optional<fxprof::ThreadHandle> ProfileContext::thread_track(eventlog::ThreadId thread) const {
    auto it = thread_tracks.find(thread);
    if (it == thread_tracks.end()) return std::nullopt;
    return it->second.handle;
}

bool ProfileContext::thread_is_folded(eventlog::ThreadId thread) const {
    auto it = thread_tracks.find(thread);
    return it != thread_tracks.end() && it->second.folded;
}

std::optional<eventlog::ThreadId> ProfileContext::running_thread(eventlog::CapNo cap, std::uint64_t time) const {
    for (const analysis::CapabilityTimeline& c : threading.capabilities) {
        if (c.cap != cap) continue;
        // The last span starting at or before `time`.
        auto it = std::upper_bound(c.spans.begin(), c.spans.end(), time,
                                   [](std::uint64_t t, const analysis::CapabilitySpan& s) { return t < s.start; });
        if (it == c.spans.begin()) return std::nullopt;
        --it;
        if (time > it->end || it->activity.state != analysis::CapabilityState::mutator) return std::nullopt;
        return it->activity.thread;
    }
    return std::nullopt;
}

std::string ProfileContext::thread_name(eventlog::ThreadId thread) const {
    const ThreadFacts* facts = threads.find(thread);
    if (facts && !facts->label().empty()) return std::to_string(thread) + " " + facts->label();
    return "thread " + std::to_string(thread);
}

}  // namespace el2fx::convert

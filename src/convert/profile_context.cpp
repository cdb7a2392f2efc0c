#include "convert/profile_context.hpp"

#include <algorithm>

#include "analysis/run/forgotten_labels.hpp"
#include "util/error.hpp"

namespace el2fx::convert {

Categories declare_categories(fxprof::Profile& profile) {
    Categories c;
    c.other = fxprof::Profile::default_category();
    c.idle = profile.handle_for_category("Idle", fxprof::CategoryColor::transparent);
    c.running = profile.handle_for_category("Running", fxprof::CategoryColor::green);
    c.gc = profile.handle_for_category("GC", fxprof::CategoryColor::orange);
    c.gc_wait = profile.handle_for_category("GC wait", fxprof::CategoryColor::darkgrey);
    c.waiting_for_gc = profile.handle_for_category("Waiting for GC", fxprof::CategoryColor::brown);
    c.runnable = profile.handle_for_category("Runnable", fxprof::CategoryColor::grey);
    c.foreign_call = profile.handle_for_category("Foreign call", fxprof::CategoryColor::magenta);
    c.blocked = profile.handle_for_category("Blocked", fxprof::CategoryColor::lightblue);
    c.user = profile.handle_for_category("User", fxprof::CategoryColor::yellow);
    c.memory = profile.handle_for_category("Memory", fxprof::CategoryColor::purple);
    c.warning = profile.handle_for_category("Warning", fxprof::CategoryColor::red);
    return c;
}

std::optional<fxprof::ThreadHandle> ProfileContext::capability_track(eventlog::CapNo cap) const {
    auto it = capability_tracks.find(cap);
    if (it == capability_tracks.end()) return std::nullopt;
    return it->second;
}

void ProfileContext::set_thread_track(eventlog::ThreadId thread, fxprof::ThreadHandle track, bool folded) {
    std::optional<std::uint32_t> i = threads.ordinal(thread);
    if (!i) return;  // tracks are only made for threads of the catalog
    if (*i >= thread_tracks_.size()) thread_tracks_.resize(threads.threads().size());
    if (track.index() >= (1u << 31) - 1) throw Error("too many thread tracks");
    thread_tracks_[*i] = ThreadTrack{track.index() + 1, folded};
}

const ProfileContext::ThreadTrack* ProfileContext::track_of(eventlog::ThreadId thread) const {
    std::optional<std::uint32_t> i = threads.ordinal(thread);
    if (!i || *i >= thread_tracks_.size() || thread_tracks_[*i].handle_plus_one == 0) return nullptr;
    return &thread_tracks_[*i];
}

// Both passes see the same events: a thread the catalog does not know, when it forgot some,
// is one of those.
bool ProfileContext::forgotten(eventlog::ThreadId thread) const {
    return threads.forgotten() > 0 && folded_track && !threads.ordinal(thread);
}

std::optional<fxprof::ThreadHandle> ProfileContext::thread_track(eventlog::ThreadId thread) const {
    const ThreadTrack* t = track_of(thread);
    if (!t) return forgotten(thread) ? folded_track : std::nullopt;
    return fxprof::ThreadHandle(t->handle_plus_one - 1);
}

bool ProfileContext::thread_is_folded(eventlog::ThreadId thread) const {
    const ThreadTrack* t = track_of(thread);
    return t ? bool(t->folded) : forgotten(thread);
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
    const run::ThreadFacts* facts = threads.find(thread);
    if (facts && facts->labelled()) return std::to_string(thread) + " " + std::string(threads.label(*facts));
    if (!facts && forgotten_labels) {  // its label so far (forgotten_labels.hpp)
        if (std::string_view label = forgotten_labels->label(thread); !label.empty())
            return std::to_string(thread) + " " + std::string(label);
    }
    return "thread " + std::to_string(thread);
}

}  // namespace el2fx::convert

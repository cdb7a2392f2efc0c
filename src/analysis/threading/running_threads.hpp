// Which Haskell thread each capability runs right now, from RUN_THREAD/STOP_THREAD as the
// events stream by: lets a consumer note the running thread when an event happens instead of
// looking it up later in spans it would have to keep.
#pragma once

#include <optional>
#include <vector>

#include "eventlog/event.hpp"
#include "eventlog/event_types.hpp"
#include "pass/interests.hpp"

namespace el2fx::analysis {

class RunningThreads {
public:
    // Every event, in time order.
    void handle(const eventlog::Event& event) {
        if (!concerns(event.tag) || !event.cap) return;  // by tag first: it sees every event
        if (const auto* run = event.as<eventlog::RunThread>()) {
            slot(*event.cap) = run->thread;
        } else if (const auto* stop = event.as<eventlog::StopThread>()) {
            std::optional<eventlog::ThreadId>& s = slot(*event.cap);
            if (s == stop->thread) s.reset();
        } else if (event.as<eventlog::StartGC>()) {
            slot(*event.cap).reset();  // a collection stops the capability's mutator
        }
    }
    // The tags handle() acts on.
    static bool concerns(std::uint16_t tag) {
        return tag == eventlog::RunThread::tag || tag == eventlog::StopThread::tag || tag == eventlog::StartGC::tag;
    }
    static pass::Interests interests() { return pass::Interests::where(concerns); }
    std::optional<eventlog::ThreadId> on(eventlog::CapNo cap) const {
        return cap < running_.size() ? running_[cap] : std::nullopt;
    }

private:
    std::optional<eventlog::ThreadId>& slot(eventlog::CapNo cap) {
        if (cap >= running_.size()) running_.resize(std::size_t{cap} + 1);
        return running_[cap];
    }
    std::vector<std::optional<eventlog::ThreadId>> running_;  // by capability
};

}  // namespace el2fx::analysis

// What the eventlog says about each Haskell thread besides its run/stop states:
// when it was created and finished, its labels over time, and the moments worth
// a marker (created, migrated, woken, labelled, finished).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "eventlog/event.hpp"

namespace el2fx::convert {

struct ThreadLabelChange {
    std::uint64_t time = 0;
    std::string label;
};

struct ThreadFacts {
    eventlog::ThreadId id = 0;
    std::optional<std::uint64_t> created;
    std::optional<eventlog::CapNo> created_on;
    std::optional<std::uint64_t> finished;
    std::vector<ThreadLabelChange> labels;  // every label it had, in time order
    std::uint64_t first_seen = 0;           // its first event of any kind

    // The last label, which names its track; empty without one.
    const std::string& label() const;
};

struct ThreadMoment {
    enum class Kind : std::uint8_t { created, migrated, woken, labelled, finished };
    std::uint64_t time = 0;
    eventlog::ThreadId thread = 0;
    Kind kind = Kind::created;
    eventlog::CapNo cap = 0;         // where it happened
    eventlog::CapNo other_cap = 0;   // migrated to / woken on
    std::uint32_t label_index = 0;   // labelled: index into the thread's labels
};

class ThreadCatalog {
public:
    void handle(const eventlog::Event& event);
    // Moments are kept for moments() unless told otherwise, or handed to a sink as they
    // happen (a streaming conversion marks them at once).
    void keep_moments(bool keep) { keep_moments_ = keep; }
    void set_moment_sink(std::function<void(const ThreadMoment&)> sink) { moment_sink_ = std::move(sink); }

    // Threads in order of first appearance (creation order for a complete log).
    const std::vector<ThreadFacts>& threads() const { return threads_; }
    const ThreadFacts* find(eventlog::ThreadId id) const;
    const std::vector<ThreadMoment>& moments() const { return moments_; }

private:
    ThreadFacts& facts(eventlog::ThreadId id, std::uint64_t time);
    void moment(const ThreadMoment& m) {
        if (moment_sink_) moment_sink_(m);
        else if (keep_moments_) moments_.push_back(m);
    }

    std::vector<ThreadFacts> threads_;
    std::unordered_map<eventlog::ThreadId, std::size_t> index_;
    std::vector<ThreadMoment> moments_;
    bool keep_moments_ = true;
    std::function<void(const ThreadMoment&)> moment_sink_;
};

}  // namespace el2fx::convert

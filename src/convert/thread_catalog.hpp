// What the eventlog says about each Haskell thread besides its run/stop states:
// when it was created and finished and its labels over time (ThreadCatalog, for the
// census), and the moments worth a marker as they happen (ThreadMoments: created,
// migrated, woken, labelled, finished).
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

    // Threads in order of first appearance (creation order for a complete log).
    const std::vector<ThreadFacts>& threads() const { return threads_; }
    const ThreadFacts* find(eventlog::ThreadId id) const;

private:
    ThreadFacts& facts(eventlog::ThreadId id, std::uint64_t time);

    std::vector<ThreadFacts> threads_;
    std::unordered_map<eventlog::ThreadId, std::size_t> index_;
};

// The moments, handed to a sink as the events come. A moment's label_index counts the
// thread's labels so far, so it indexes the ThreadCatalog's facts of the same events.
class ThreadMoments {
public:
    explicit ThreadMoments(std::function<void(const ThreadMoment&)> sink) : sink_(std::move(sink)) {}
    void handle(const eventlog::Event& event);

private:
    struct State {
        std::uint32_t labels = 0;
        bool finished = false;
    };
    std::function<void(const ThreadMoment&)> sink_;
    std::unordered_map<eventlog::ThreadId, State> threads_;
};

}  // namespace el2fx::convert

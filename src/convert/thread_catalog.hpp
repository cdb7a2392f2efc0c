// What the eventlog says about each Haskell thread besides its run/stop states:
// when it was created and finished and its labels over time (ThreadCatalog, for the
// census), and the moments worth a marker as they happen (ThreadMoments: created,
// migrated, woken, labelled, finished).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "eventlog/event.hpp"
#include "util/id_map.hpp"

namespace el2fx::convert {

// The facts of one thread: 40 bytes, as a log may have hundreds of thousands of threads.
struct ThreadFacts {
    std::uint64_t first_seen = 0;  // its first event of any kind
    eventlog::ThreadId id = 0;

    std::optional<std::uint64_t> created() const { return has_created_ ? std::optional(created_) : std::nullopt; }
    std::optional<eventlog::CapNo> created_on() const { return has_created_on_ ? std::optional(created_on_) : std::nullopt; }
    std::optional<std::uint64_t> finished() const { return has_finished_ ? std::optional(finished_) : std::nullopt; }
    bool labelled() const { return last_label_ != kNoLabel; }

private:
    friend class ThreadCatalog;
    static constexpr std::uint32_t kNoLabel = UINT32_MAX;
    // The thread's labels in the catalog's table: a chain while events come, then (finish())
    // the contiguous range first..last.
    std::uint32_t first_label_ = kNoLabel;
    std::uint32_t last_label_ = kNoLabel;
    eventlog::CapNo created_on_ = 0;
    bool has_created_ : 1 = false, has_created_on_ : 1 = false, has_finished_ : 1 = false;
    std::uint64_t created_ = 0;
    std::uint64_t finished_ = 0;
};
static_assert(sizeof(ThreadFacts) <= 40);

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
    // The thread's place in threads(): a dense number for per-thread tables.
    std::optional<std::uint32_t> ordinal(eventlog::ThreadId id) const;

    // Once every event is in: each thread's labels side by side (so the label queries take
    // O(1) and O(log n), whatever a program's relabelling), spare capacity given back.
    void finish();

    // Its last label, which names its track; empty without one.
    std::string_view label(const ThreadFacts& thread) const;
    // After finish() (el2fx::Error before): the label it had at `time` (its latest label set at
    // or before it; empty before the first), and its n-th label (0: the first; empty past the last).
    std::string_view label_at(const ThreadFacts& thread, std::uint64_t time) const;
    std::string_view nth_label(const ThreadFacts& thread, std::uint32_t n) const;

private:
    struct LabelChange {  // 16 bytes: kept for the whole conversion
        std::uint64_t time = 0;
        std::uint32_t offset = 0, size = 0;  // in label_bytes_
    };
    ThreadFacts& facts(eventlog::ThreadId id, std::uint64_t time);
    std::string_view text(const LabelChange& l) const { return std::string_view(label_bytes_).substr(l.offset, l.size); }

    std::vector<ThreadFacts> threads_;
    util::IdMap<std::uint32_t> index_;  // id -> place in threads_
    void require_finished() const;

    std::vector<LabelChange> labels_;
    std::vector<std::uint32_t> next_label_;  // the chains, by label, until finish()
    std::string label_bytes_;
    bool finished_ = false;
};

// The moments, handed to a sink as the events come. A moment's label_index counts the
// thread's labels so far, so it indexes the ThreadCatalog's facts of the same events.
class ThreadMoments {
public:
    explicit ThreadMoments(std::function<void(const ThreadMoment&)> sink) : sink_(std::move(sink)) {}
    void handle(const eventlog::Event& event);

private:
    struct State {  // 4 bytes: one per Haskell thread
        std::uint32_t labels : 31 = 0;  // (2^31 labels on one thread would take a 20 GB log)
        std::uint32_t finished : 1 = 0;
    };
    std::function<void(const ThreadMoment&)> sink_;
    util::IdMap<State> threads_;
};

}  // namespace el2fx::convert

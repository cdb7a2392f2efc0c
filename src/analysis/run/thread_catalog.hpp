// What the eventlog says about each Haskell thread besides its run/stop states:
// when it was created and finished and its labels over time (ThreadCatalog, for the
// census), and the moments worth a marker as they happen (ThreadMoments: created,
// migrated, woken, labelled, finished).
#pragma once

#include <cstdint>
#include <memory_resource>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "eventlog/event.hpp"
#include "util/id_map.hpp"
#include "util/recycling_memory.hpp"

namespace el2fx::run {

// The facts of one thread: 32 bytes, as a log may have hundreds of thousands of threads.
struct ThreadFacts {
    std::uint64_t first_seen = 0;  // its first event of any kind
    eventlog::ThreadId id = 0;

    std::optional<std::uint64_t> created() const { return has_created_ ? std::optional(created_) : std::nullopt; }
    std::optional<std::uint64_t> finished() const { return has_finished_ ? std::optional(finished_) : std::nullopt; }
    bool labelled() const { return last_label_ != kNoLabel; }

private:
    friend class ThreadCatalog;
    // Label changes of all threads together stay below 2^30 (a 26 GB log of only labels).
    static constexpr std::uint32_t kNoLabel = (1u << 30) - 1;
    // Its latest label in the catalog's table. While events come the thread's labels chain
    // back from it; after finish() they lie side by side, ending with it.
    std::uint32_t last_label_ : 30 = kNoLabel;
    std::uint32_t has_created_ : 1 = 0;
    std::uint32_t has_finished_ : 1 = 0;
    std::uint64_t created_ = 0;
    std::uint64_t finished_ = 0;
};
static_assert(sizeof(ThreadFacts) <= 32);

struct ThreadMoment {
    enum class Kind : std::uint8_t { created, migrated, woken, labelled, finished };
    std::uint64_t time = 0;
    eventlog::ThreadId thread = 0;
    Kind kind = Kind::created;
    eventlog::CapNo cap = 0;        // where it happened
    eventlog::CapNo other_cap = 0;  // migrated to / woken on
    std::uint32_t label_index = 0;  // labelled: index into the thread's labels
};

class ThreadCatalog {
public:
    void handle(const eventlog::Event& event);

    // Threads in order of first appearance (creation order for a complete log).
    const std::vector<ThreadFacts>& threads() const { return threads_; }
    // Inline: the second pass asks for every thread event, several times.
    const ThreadFacts* find(eventlog::ThreadId id) const {
        const std::uint32_t* i = index_.find(id);
        return i ? &threads_[*i] : nullptr;
    }
    // The thread's place in threads(): a dense number for per-thread tables.
    std::optional<std::uint32_t> ordinal(eventlog::ThreadId id) const {
        const std::uint32_t* i = index_.find(id);
        return i ? std::optional(*i) : std::nullopt;
    }

    // The census's per-tag entry points (handle() takes the same paths), for the events
    // that name a thread; each gives the thread's ordinal. Inline: tens of millions of events.
    // Run, migrated, woken: the thread is known from now on.
    std::uint32_t seen(eventlog::ThreadId id, std::uint64_t time) {
        if (const std::uint32_t* i = index_.find(id)) return *i;
        return add(id, time);
    }
    // Created: when it was.
    std::uint32_t created(eventlog::ThreadId id, std::uint64_t time) {
        const std::uint32_t i = seen(id, time);
        threads_[i].created_ = time;
        threads_[i].has_created_ = true;
        return i;
    }
    // Stopped: with ThreadFinished, the first such stop is when it finished.
    std::uint32_t stopped(eventlog::ThreadId id, std::uint16_t status, std::uint64_t time) {
        const std::uint32_t i = seen(id, time);
        ThreadFacts& t = threads_[i];
        if (status == kThreadFinished && !t.has_finished_) {
            t.finished_ = time;
            t.has_finished_ = true;
        }
        return i;
    }

    // Forgets the threads whose `keep[ordinal]` is false, with their labels, so that the catalog
    // of a log with millions of short-lived threads stays small (run_census.cpp chooses whom).
    // The kept ones keep their order; ordinals change (parallel tables drop the same places).
    // Before finish() only. A forgotten thread's later events would make it a new one.
    void forget_unless(const std::vector<bool>& keep);
    // How many were forgotten.
    std::uint64_t forgotten() const { return forgotten_; }
    // Where the earliest forgotten thread stood: the number of threads() before it.
    std::optional<std::uint32_t> first_forgotten_place() const { return first_forgotten_place_; }

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
    static constexpr std::uint16_t kThreadFinished = static_cast<std::uint16_t>(eventlog::StopStatus::ThreadFinished);
    ThreadFacts& facts(eventlog::ThreadId id, std::uint64_t time) { return threads_[seen(id, time)]; }
    std::uint32_t add(eventlog::ThreadId id, std::uint64_t time);  // a new thread: its ordinal
    std::string_view text(const LabelChange& l) const {
        return std::string_view(label_bytes_).substr(l.offset, l.size);
    }

    std::vector<ThreadFacts> threads_;
    util::IdMap<std::uint32_t> index_;  // id -> place in threads_
    void require_finished() const;

    // A thread's labels, first..last (after finish()).
    std::pair<std::uint32_t, std::uint32_t> label_range(const ThreadFacts& t) const;

    std::vector<LabelChange> labels_;
    std::vector<std::uint32_t> previous_label_;  // the chains, by label, until finish()
    // After finish(): each labelled thread's last label, ascending (its range starts after
    // the previous one's), so a thread keeps one index, not two.
    std::vector<std::uint32_t> label_ends_;
    std::string label_bytes_;
    bool finished_ = false;
    std::uint64_t forgotten_ = 0;
    std::optional<std::uint32_t> first_forgotten_place_;
};

// The moments, as the events come: moment(event) is the one an event makes, if any. A
// moment's label_index counts the thread's labels so far, so it indexes the ThreadCatalog's
// facts of the same events.
class ThreadMoments {
public:
    // Inline: wake-ups, migrations and stops come by the million; the rare kinds out of line.
    std::optional<ThreadMoment> moment(const eventlog::Event& event) {
        using namespace eventlog;
        using Kind = ThreadMoment::Kind;
        switch (event.tag) {
            case WakeupThread::tag:
                if (auto* p = event.as<WakeupThread>())
                    return ThreadMoment{event.time, p->thread, Kind::woken, event.cap.value_or(0), p->other_cap, 0};
                return std::nullopt;
            case MigrateThread::tag:
                if (auto* p = event.as<MigrateThread>())
                    return ThreadMoment{event.time, p->thread, Kind::migrated, event.cap.value_or(0), p->new_cap, 0};
                return std::nullopt;
            case StopThread::tag:
                if (auto* p = event.as<StopThread>(); p && p->status == kThreadFinished)
                    return finished(event, p->thread);
                return std::nullopt;
            case CreateThread::tag:
            case ThreadLabel::tag: return rare_moment(event);
            default: return std::nullopt;
        }
    }
    // The tags moment() makes moments of.
    static bool concerns(std::uint16_t tag);

private:
    static constexpr std::uint16_t kThreadFinished = static_cast<std::uint16_t>(eventlog::StopStatus::ThreadFinished);
    std::optional<ThreadMoment> finished(const eventlog::Event& event, eventlog::ThreadId thread);
    std::optional<ThreadMoment> rare_moment(const eventlog::Event& event);  // created, labelled

    // Labels so far of the threads not finished: a finished thread keeps only its bit, so
    // that memory follows the live threads (its later labels count from 0: a broken log).
    // Millions of short-lived labelled threads reuse their nodes' memory.
    util::RecyclingMemory label_nodes_;
    std::pmr::unordered_map<eventlog::ThreadId, std::uint32_t> labels_{&label_nodes_};
    util::IdSet finished_;
};

}  // namespace el2fx::run

// The labels of the threads the census forgot (ThreadCatalog::forget_unless), for the second
// pass: each one's latest label so far, replayed from the events, kept while it lives and a
// grace period after (markers and samples trail the events), then dropped. So a forgotten
// thread is named as the catalog would name it ("12 worker") as long as its label did not
// change after it was named, and costs nothing once long finished.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <utility>

#include "analysis/run/thread_catalog.hpp"
#include "eventlog/event.hpp"
#include "pass/interests.hpp"
#include "eventlog/event_types.hpp"
#include "util/id_map.hpp"
#include "util/slab_id_map.hpp"

namespace el2fx::run {

// How long after its finish a forgotten thread is still named: samples and markers trail the
// events by a few sampling intervals, merged markers by up to a window.
inline std::uint64_t forgotten_grace_ns(std::uint64_t sampling_interval_ns) {
    return 10'000'000'000 + 10 * sampling_interval_ns;
}

class ForgottenLabels {
public:
    // `catalog` must outlive this.
    ForgottenLabels(const ThreadCatalog& catalog, std::uint64_t grace_ns) : catalog_(catalog), grace_ns_(grace_ns) {}

    // Every event of the second pass, in time order, before anyone names its thread.
    // Inline: without forgotten threads (most logs) there is nothing to follow, and with them
    // most events only move the clock (a call for each showed in a dense log's pass: README).
    // Every event moves its clock; labels and stops are read.
    static pass::Interests interests() {
        return pass::Interests::every_event({eventlog::ThreadLabel::tag, eventlog::StopThread::tag});
    }
    void handle(const eventlog::Event& event) {
        if (catalog_.forgotten() == 0) return;
        if (event.tag == eventlog::ThreadLabel::tag || finishes(event))
            follow(event);
        else if (event.time > expires_at_)
            expire(event.time);
    }
    // The forgotten thread's latest label; empty without one (or once dropped). The view is
    // valid until the next handle(): a label added then may move the others.
    std::string_view label(eventlog::ThreadId id) const;

private:
    // A thread's finish, the one stop follow() reads (most stops only move the clock).
    static bool finishes(const eventlog::Event& event) {
        const auto* p = event.tag == eventlog::StopThread::tag ? event.as<eventlog::StopThread>() : nullptr;
        return p && p->status == static_cast<std::uint16_t>(eventlog::StopStatus::ThreadFinished);
    }
    void follow(const eventlog::Event& event);
    void expire(std::uint64_t now);  // drops the labels whose grace ended before `now`
    bool forgotten(eventlog::ThreadId id) const { return catalog_.forgotten() > 0 && !catalog_.ordinal(id); }

    const ThreadCatalog& catalog_;
    std::uint64_t grace_ns_;
    // Millions of short-lived labelled threads, hundreds of thousands held at once (the grace
    // outlasts a log of a few seconds): each label in an entry of one vector, reused as they
    // expire (a short label's text inside its string), not a node, a bucket and recycled
    // string memory each.
    util::SlabIdMap<std::string> labels_;
    std::string sanitized_;  // a label being made
    util::IdSet labelled_;   // labels_'s keys: a bit to test at each of millions of stops, not a hash lookup
    std::deque<std::pair<std::uint64_t, eventlog::ThreadId>> finished_;  // by when they finished
    std::uint64_t expires_at_ = ~std::uint64_t{0};                       // the first one's grace ends (none: never)
};

}  // namespace el2fx::run

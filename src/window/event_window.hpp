// The window stage: between the time-ordered reader and the analyses, it hands on one
// window of the events, as if the log had started at the window's start and ended at its
// end. Events before the start go to the prelude (window_prelude.hpp), which states the
// state at the start as events stamped there; the window's events follow, with cumulative
// counters counted from the start; at the first event after the end, a global BLOCK_MARKER
// stamped at the end closes the stream (so the analyses end there) and nothing more is read.
//
// Both passes of a conversion run their own EventWindow over the same events, so both see
// the same stream. A window not found throws el2fx::Error at the end of the input: a
// --from-marker or --to-marker nothing matches, a --from after the last event, a
// --from-marker at or after --to.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "eventlog/event.hpp"
#include "eventlog/skip_before.hpp"
#include "window/window_prelude.hpp"
#include "window/window_start.hpp"
#include "window/window_spec.hpp"

namespace el2fx::window {

class EventWindow {
public:
    // An inactive spec hands on every event unchanged. Throws el2fx::Error for a spec that
    // cannot hold anything (check_spec).
    explicit EventWindow(const WindowSpec& spec);
    // A later pass over the same events, from where an earlier one found the start: `source`
    // must begin at start->first (EventPrefetcher's `from`). Without a start, as above.
    EventWindow(const WindowSpec& spec, std::optional<WindowStart> start);

    // The next event of the window from `source` (anything with `const Event* next()`), or
    // nullptr at its end. Valid until the next call.
    template <typename Source>
    const eventlog::Event* next(Source& source) {
        if (!active_) return source.next();
        for (;;) {
            if (const eventlog::Event* queued = from_queue()) return queued;
            if (phase_ == Phase::ended) return nullptr;
            const eventlog::Event* event = pull(source);
            if (!event) {
                end_of_input();
                continue;
            }
            take(*event);
        }
    }

    // Where the window was cut, once its start was found.
    WindowBounds bounds() const { return {from_, to_, cut_}; }
    // What a later pass needs to begin at the start (once: it is moved out); none before the
    // window started.
    std::optional<WindowStart> take_start_state();
    bool started() const { return phase_ != Phase::before; }

private:
    enum class Phase : std::uint8_t { before, inside, ended };

    // Before the start, a source that can pass over records undecoded (EventPrefetcher) is
    // asked for the types the prelude and the opening need only.
    template <typename Source>
    const eventlog::Event* pull(Source& source) {
        if constexpr (requires { source.next(skip_); }) {
            if (phase_ == Phase::before) return source.next(skip_);
        }
        return source.next();
    }

    void take(const eventlog::Event& event);
    void start(const eventlog::Event& event);
    void inside(const eventlog::Event& event);
    void end_at(std::uint64_t time);
    void end_of_input();
    const eventlog::Event* from_queue();
    static bool marks(const eventlog::Event& event, std::string_view text);

    WindowSpec spec_;
    bool active_ = false;
    Phase phase_ = Phase::before;
    std::uint64_t from_ = 0;
    std::optional<std::uint64_t> to_;
    bool cut_ = false;  // ended at the first event after `to`
    std::uint64_t last_time_ = 0;
    const eventlog::Event* opening_ = nullptr;  // the event that opened the window (its own marker)
    WindowPrelude prelude_;
    std::vector<eventlog::Event> queue_;  // synthetic events to hand on first
    std::size_t queued_ = 0;              // next of queue_
    const eventlog::Event* held_ = nullptr;  // then this one (the source's, or rewritten_)
    eventlog::Event rewritten_;
    eventlog::SkipBefore skip_;
    std::optional<WindowStart> start_;  // a first pass: what it found at the start
    std::vector<OwnedEvent> stated_;    // a later pass: the start's events (queue_ points into them)
};

}  // namespace el2fx::window

#include "window/event_window.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "util/error.hpp"

namespace el2fx::window {
namespace {

using namespace eventlog;

std::string quoted(const std::string& text) { return "\"" + text + "\""; }

}  // namespace

EventWindow::EventWindow(const WindowSpec& spec) : spec_(spec), active_(spec.active()) {
    check_spec(spec_);
    to_ = spec_.to;
    queue_.reserve(64);
    skip_.before = spec_.from_marker ? UINT64_MAX : spec_.from.value_or(0);
    skip_.wanted = &WindowPrelude::wanted(spec_.from_marker.has_value());
}

EventWindow::EventWindow(const WindowSpec& spec, std::optional<WindowStart> start) : EventWindow(spec) {
    if (!active_ || !start) return;
    phase_ = Phase::inside;
    from_ = start->from;
    to_ = start->to ? start->to : to_;
    last_time_ = start->from;
    stated_ = std::move(start->stated);
    for (OwnedEvent& e : stated_) queue_.push_back(e.event());
    prelude_ = WindowPrelude(std::move(start->collection), std::move(start->baselines));
}

std::optional<WindowStart> EventWindow::take_start_state() {
    if (start_) start_->to = to_;  // found inside the window, after the start
    return std::exchange(start_, std::nullopt);
}

bool EventWindow::marks(const Event& event, std::string_view text) {
    if (const auto* m = event.as<UserMarker>()) return m->marker.bytes.starts_with(text);
    if (const auto* m = event.as<UserMessage>()) return m->message.bytes.starts_with(text);
    return false;
}

const Event* EventWindow::from_queue() {
    if (queued_ < queue_.size()) return &queue_[queued_++];
    if (!queue_.empty()) {
        queue_.clear();
        queued_ = 0;
    }
    const Event* held = held_;
    held_ = nullptr;
    return held;
}

void EventWindow::take(const Event& event) {
    last_time_ = std::max(last_time_, event.time);
    if (phase_ == Phase::before) {
        const bool opens = spec_.from_marker ? marks(event, *spec_.from_marker) : event.time >= spec_.from.value_or(0);
        if (!opens) {
            prelude_.handle(event);
            return;
        }
        start(event);
    }
    inside(event);
}

void EventWindow::start(const Event& event) {
    from_ = spec_.from_marker ? event.time : spec_.from.value_or(0);
    opening_ = spec_.from_marker ? &event : nullptr;
    if (to_ && *to_ <= from_)
        throw Error("--from-marker " + quoted(*spec_.from_marker) + " is at " + format_time(from_) +
                    ", not before --to " + format_time(*to_));
    phase_ = Phase::inside;
    for (std::size_t c = 0; c < skip_.caps.size(); ++c)
        if (skip_.caps[c]) prelude_.saw_capability(static_cast<CapNo>(c));
    // A global block marker first: the window starts at `from` even where no event is.
    Event opening;
    opening.time = from_;
    opening.tag = BlockMarker::tag;
    opening.payload = BlockMarker{0, from_, kGlobalCap};
    opening.synthetic = true;
    queue_.push_back(opening);
    for (Event& e : prelude_.state_at(from_)) queue_.push_back(std::move(e));
    // For a later pass: the same start, kept (the prelude's events live only as long as it).
    start_.emplace();
    start_->from = from_;
    start_->first = {event.time, event.offset};
    for (const Event& e : queue_) start_->stated.emplace_back(e);
    start_->collection = prelude_.collection();
    start_->baselines = prelude_.baselines();
}

void EventWindow::inside(const Event& event) {
    if (to_ && event.time > *to_) {
        end_at(*to_);
        return;
    }
    if (spec_.to_marker && !to_ && &event != opening_ && marks(event, *spec_.to_marker)) to_ = event.time;
    opening_ = nullptr;
    if (!prelude_.passes(event)) return;
    held_ = &event;
    if (const auto* p = event.as<HeapAllocated>()) {
        rewritten_ = event;
        std::get<HeapAllocated>(rewritten_.payload).alloc_bytes =
            prelude_.baselines().allocated_since(event.cap.value_or(0), p->alloc_bytes);
        held_ = &rewritten_;
    } else if (const auto* s = event.as<SparkCounters>(); s && event.cap) {
        rewritten_ = event;
        rewritten_.payload = prelude_.baselines().sparks_since(*event.cap, *s);
        held_ = &rewritten_;
    }
}

void EventWindow::end_at(std::uint64_t time) {
    phase_ = Phase::ended;
    cut_ = true;
    Event closing;
    closing.time = time;
    closing.tag = BlockMarker::tag;
    closing.payload = BlockMarker{0, time, kGlobalCap};
    closing.synthetic = true;
    queue_.push_back(closing);
}

void EventWindow::end_of_input() {
    if (phase_ == Phase::before) {
        if (spec_.from_marker)
            throw Error("--from-marker " + quoted(*spec_.from_marker) +
                        ": no traceMarker or traceEvent message starts with it");
        throw Error("--from " + format_time(spec_.from.value_or(0)) + " is after the log's last event (at " +
                    format_time(std::max(last_time_, skip_.last_time)) + ")");
    }
    if (phase_ == Phase::inside && spec_.to_marker && !to_)
        throw Error("--to-marker " + quoted(*spec_.to_marker) +
                    ": no traceMarker or traceEvent message starts with it after the window's start at " +
                    format_time(from_));
    phase_ = Phase::ended;
}

}  // namespace el2fx::window

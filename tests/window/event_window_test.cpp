// The window stage (window/event_window.hpp) over a list of events: where it opens, what it
// states there, where it closes, what it reads, and the windows it refuses.
#include <boost/test/unit_test.hpp>

// Windows are written with designated initializers naming only the ends they give.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

#include <algorithm>
#include <string>
#include <vector>

#include "make_event.hpp"
#include "util/error.hpp"
#include "window/event_window.hpp"

using namespace el2fx::eventlog;
using el2fx::testing::make_event;
using el2fx::window::EventWindow;
using el2fx::window::WindowSpec;
using el2fx::eventlog::SkipBefore;

namespace {

// A source like the reader: hands out its events one by one, counting how many it read.
struct ListSource {
    std::vector<Event> events;
    std::size_t read = 0;
    const Event* next() { return read < events.size() ? &events[read++] : nullptr; }
};

struct Out {
    std::uint64_t time;
    std::uint16_t tag;
    bool synthetic;
    std::uint64_t offset = 0;
    bool operator==(const Out&) const = default;
};

template <typename Source>
std::vector<Out> run(EventWindow& window, Source& source) {
    std::vector<Out> out;
    while (const Event* e = window.next(source)) out.push_back({e->time, e->tag, e->synthetic, e->offset});
    return out;
}

Event marker(std::uint64_t time, std::string_view text) { return make_event(time, CapNo{0}, UserMarker{Text{text}}); }
Event message(std::uint64_t time, std::string_view text) {
    return make_event(time, CapNo{0}, UserMessage{Text{text}});
}

ListSource log() {
    ListSource s;
    s.events = {make_event(10, CapNo{0}, RunThread{1}),  marker(20, "minute 1"),
                make_event(30, CapNo{0}, StopThread{1, 7, std::nullopt}), message(40, "minute 2 begins"),
                make_event(50, CapNo{0}, RunThread{1}),  marker(60, "minute 3"),
                make_event(70, CapNo{0}, StopThread{1, 3, std::nullopt})};
    return s;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(event_window)

BOOST_AUTO_TEST_CASE(inactive_window_hands_on_every_event_unchanged) {
    ListSource s = log();
    EventWindow w(WindowSpec{});
    auto out = run(w, s);
    BOOST_REQUIRE(out.size() == s.events.size());
    for (std::size_t i = 0; i < out.size(); ++i) {
        BOOST_TEST(out[i].time == s.events[i].time);
        BOOST_TEST(!out[i].synthetic);
    }
}

BOOST_AUTO_TEST_CASE(from_opens_with_a_block_marker_and_the_state_then_the_events) {
    ListSource s = log();
    EventWindow w(WindowSpec{.from = 25});
    auto out = run(w, s);
    BOOST_REQUIRE(out.size() >= 3u);
    BOOST_TEST(out[0].time == 25u);
    BOOST_TEST(out[0].tag == BlockMarker::tag);
    BOOST_TEST(out[0].synthetic);
    // Thread 1 was running on capability 0 at 25: the state says so, at 25.
    bool running = false;
    std::size_t first_real = 0;
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (out[i].synthetic && out[i].tag == RunThread::tag) running = out[i].time == 25;
        if (!out[i].synthetic) {
            first_real = i;
            break;
        }
    }
    BOOST_TEST(running);
    BOOST_TEST(out[first_real].time == 30u);
    for (const Out& o : out) BOOST_TEST(o.time >= 25u);
    BOOST_TEST(w.bounds().from == 25u);
}

BOOST_AUTO_TEST_CASE(to_closes_with_a_block_marker_and_reads_no_further) {
    ListSource s = log();
    EventWindow w(WindowSpec{.to = 45});
    auto out = run(w, s);
    BOOST_TEST(out.back().time == 45u);
    BOOST_TEST(out.back().tag == BlockMarker::tag);
    BOOST_TEST(out.back().synthetic);
    for (const Out& o : out) BOOST_TEST(o.time <= 45u);
    BOOST_TEST(s.read == 5u);  // the first event after 45 told the end; nothing after it was read
    BOOST_TEST(!w.next(s));
    BOOST_TEST(s.read == 5u);
    BOOST_TEST(w.bounds().cut);  // the log went on: what was under way at 45 is cut there
}

BOOST_AUTO_TEST_CASE(events_at_to_are_in_the_window) {
    ListSource s = log();
    EventWindow w(WindowSpec{.to = 40});
    auto out = run(w, s);
    BOOST_TEST(out[out.size() - 2].time == 40u);
    BOOST_TEST(!out[out.size() - 2].synthetic);
}

BOOST_AUTO_TEST_CASE(to_beyond_the_log_ends_at_the_log_end) {
    ListSource s = log();
    EventWindow w(WindowSpec{.to = 1000});
    auto out = run(w, s);
    BOOST_TEST(out.back().time == 70u);
    BOOST_TEST(!out.back().synthetic);
    BOOST_TEST(!w.bounds().cut);  // the log ended first: nothing is cut
}

BOOST_AUTO_TEST_CASE(from_marker_opens_at_the_first_marker_starting_with_the_text) {
    ListSource s = log();
    EventWindow w(WindowSpec{.from_marker = std::string("minute")});
    auto out = run(w, s);
    BOOST_TEST(w.bounds().from == 20u);
    BOOST_TEST(out.front().time == 20u);
}

BOOST_AUTO_TEST_CASE(from_marker_matches_a_trace_event_message) {
    ListSource s = log();
    EventWindow w(WindowSpec{.from_marker = std::string("minute 2")});
    (void)run(w, s);
    BOOST_TEST(w.bounds().from == 40u);
}

BOOST_AUTO_TEST_CASE(to_marker_is_the_first_after_the_start_not_the_opening_one) {
    ListSource s = log();
    EventWindow w(WindowSpec{.from_marker = std::string("minute"), .to_marker = std::string("minute")});
    auto out = run(w, s);
    BOOST_TEST(w.bounds().from == 20u);
    BOOST_REQUIRE(w.bounds().to.has_value());
    BOOST_TEST(*w.bounds().to == 40u);
    BOOST_TEST(out.back().time == 40u);
}

BOOST_AUTO_TEST_CASE(to_marker_at_or_after_a_numeric_from) {
    ListSource s = log();
    EventWindow w(WindowSpec{.from = 40, .to_marker = std::string("minute")});
    (void)run(w, s);
    BOOST_TEST(*w.bounds().to == 40u);
}

BOOST_AUTO_TEST_CASE(heap_allocated_counts_from_the_start) {
    ListSource s;
    s.events = {make_event(10, CapNo{0}, HeapAllocated{0, 1000}), make_event(30, CapNo{0}, HeapAllocated{0, 1600})};
    EventWindow w(WindowSpec{.from = 20});
    std::uint64_t last = 0;
    while (const Event* e = w.next(s))
        if (const auto* a = e->as<HeapAllocated>()) last = a->alloc_bytes;
    BOOST_TEST(last == 600u);
    // A later pass from the start state counts from the same baseline.
    ListSource rest;
    rest.events = {make_event(30, CapNo{0}, HeapAllocated{0, 1600})};
    EventWindow later(WindowSpec{.from = 20}, w.take_start_state());
    last = 0;
    while (const Event* e = later.next(rest))
        if (const auto* a = e->as<HeapAllocated>()) last = a->alloc_bytes;
    BOOST_TEST(last == 600u);
}

// A source that can pass over records undecoded (as EventPrefetcher can): the window asks it
// to only before its start, for the prelude's types, and its output is the same.
struct SkippingSource : ListSource {
    std::vector<std::uint64_t> passed_over;
    using ListSource::next;
    const Event* next(SkipBefore& skip) {
        while (read < events.size()) {
            const Event& e = events[read];
            if (e.time < skip.before && !skip.wanted->test(e.tag)) {
                passed_over.push_back(e.time);
                skip.last_time = std::max(skip.last_time, e.time);
                if (e.cap) {
                    if (*e.cap >= skip.caps.size()) skip.caps.resize(std::size_t{*e.cap} + 1);
                    skip.caps[*e.cap] = true;
                }
                ++read;
                continue;
            }
            return &events[read++];
        }
        return nullptr;
    }
};

BOOST_AUTO_TEST_CASE(before_the_start_a_skipping_source_passes_over_what_the_prelude_does_not_want) {
    SkippingSource skipping;
    skipping.events = log().events;
    // A capability known only from an event the prelude does not look at.
    skipping.events.insert(skipping.events.begin(), make_event(5, CapNo{3}, GCIdle{}));
    ListSource plain;
    plain.events = skipping.events;
    EventWindow a(WindowSpec{.from = 45}), b(WindowSpec{.from = 45});
    std::vector<Out> with_skipping = run(a, skipping), without = run(b, plain);
    BOOST_TEST(skipping.passed_over == (std::vector<std::uint64_t>{5, 20, 40}));  // the GC_IDLE, the markers
    BOOST_REQUIRE(with_skipping.size() == without.size());
    for (std::size_t i = 0; i < without.size(); ++i) {
        BOOST_TEST(with_skipping[i].time == without[i].time);
        BOOST_TEST(with_skipping[i].tag == without[i].tag);
    }
    bool cap3 = false;
    EventWindow c(WindowSpec{.from = 45});
    SkippingSource again;
    again.events = skipping.events;
    while (const Event* e = c.next(again))
        if (e->tag == BlockMarker::tag && e->cap == CapNo{3}) cap3 = true;
    BOOST_TEST(cap3);  // its capability still lives from the start
    // A --from-marker's markers are not passed over.
    SkippingSource markers;
    markers.events = log().events;
    EventWindow d(WindowSpec{.from_marker = std::string("minute 3")});
    (void)run(d, markers);
    BOOST_TEST(d.bounds().from == 60u);
    BOOST_TEST(markers.passed_over.empty());  // the markers, and what the prelude wants
}

// A later pass resumes where the first found the start (the reader from that event on) and
// hands on the same events: the state at the start, the window, its end.
BOOST_AUTO_TEST_CASE(a_later_pass_from_the_start_state_hands_on_the_same_events) {
    const std::vector<WindowSpec> specs = {{.from = 25},
                                           {.from = 25, .to = 55},
                                           {.from = 20},
                                           {.from_marker = "minute 2"},
                                           {.from_marker = "minute 1", .to_marker = "minute 3"}};
    for (const WindowSpec& spec : specs) {
        auto numbered = [] {
            ListSource s = log();
            for (std::size_t i = 0; i < s.events.size(); ++i) s.events[i].offset = 100 + i;
            return s;
        };
        ListSource whole = numbered();
        EventWindow first(spec);
        const std::vector<Out> expected = run(first, whole);
        std::optional<el2fx::window::WindowStart> start = first.take_start_state();
        BOOST_REQUIRE(start);
        ListSource rest = numbered();
        std::erase_if(rest.events, [&](const Event& e) {
            return e.time < start->first.time || (e.time == start->first.time && e.offset < start->first.offset);
        });
        EventWindow later(spec, std::move(start));
        BOOST_CHECK(run(later, rest) == expected);
        BOOST_TEST(later.bounds().from == first.bounds().from);
        BOOST_CHECK(later.bounds().to == first.bounds().to);
    }
    EventWindow none(WindowSpec{.from = 25});
    BOOST_TEST(!none.take_start_state().has_value());  // not started yet
}

BOOST_AUTO_TEST_CASE(from_marker_not_found_is_an_error) {
    ListSource s = log();
    EventWindow w(WindowSpec{.from_marker = std::string("hour")});
    BOOST_CHECK_THROW(run(w, s), el2fx::Error);
}

BOOST_AUTO_TEST_CASE(to_marker_not_found_after_the_start_is_an_error) {
    ListSource s = log();
    EventWindow w(WindowSpec{.from = 50, .to_marker = std::string("minute 1")});
    BOOST_CHECK_THROW(run(w, s), el2fx::Error);
}

BOOST_AUTO_TEST_CASE(from_after_the_last_event_is_an_error) {
    ListSource s = log();
    EventWindow w(WindowSpec{.from = 71});
    BOOST_CHECK_THROW(run(w, s), el2fx::Error);
}

BOOST_AUTO_TEST_CASE(from_at_or_after_to_is_refused_up_front) {
    BOOST_CHECK_THROW(EventWindow(WindowSpec{.from = 50, .to = 50}), el2fx::Error);
    BOOST_CHECK_THROW(EventWindow(WindowSpec{.from = 60, .to = 50}), el2fx::Error);
}

BOOST_AUTO_TEST_CASE(from_marker_at_or_after_to_is_an_error) {
    ListSource s = log();
    EventWindow w(WindowSpec{.to = 50, .from_marker = std::string("minute 3")});
    BOOST_CHECK_THROW(run(w, s), el2fx::Error);
}

BOOST_AUTO_TEST_SUITE_END()

// The second pass of a windowed conversion begins at the window's start (WindowStart: the
// reader passes over what comes before, the window states the start without a prelude). On
// real logs it must hand on exactly what a second pass through the whole log would.
#include <boost/test/unit_test.hpp>

// Windows are written with designated initializers naming only the ends they give.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

#include <cstdlib>
#include <string>
#include <vector>

#include "eventlog/event_prefetcher.hpp"
#include "eventlog/time_ordered_reader.hpp"
#include "window/event_window.hpp"

using namespace el2fx;
using namespace el2fx::eventlog;
using el2fx::window::EventWindow;
using el2fx::window::WindowSpec;
using el2fx::window::WindowStart;

namespace {

struct Seen {
    std::uint64_t time, offset;
    std::uint16_t tag;
    bool synthetic;
    std::size_t payload;
    std::optional<CapNo> cap;
    bool operator==(const Seen&) const = default;
};

std::vector<Seen> drain(EventWindow& window, EventPrefetcher& events) {
    std::vector<Seen> out;
    while (const Event* e = window.next(events))
        out.push_back({e->time, e->offset, e->tag, e->synthetic, e->payload.index(), e->cap});
    return out;
}

std::string fixture(const std::string& name) {
    const char* dir = std::getenv("EL2FX_FIXTURES");
    BOOST_REQUIRE(dir);
    return std::string(dir) + "/" + name;
}

// A whole second pass and one from the start state give the same events.
void check_resume(const std::string& log, const WindowSpec& spec) {
    InputFile input(fixture(log));
    Diagnostics d;
    TimeOrderedReader reader(input, d);
    std::optional<WindowStart> start;
    std::vector<Seen> whole;
    {
        EventPrefetcher events(reader, d);
        EventWindow window(spec);
        whole = drain(window, events);
        start = window.take_start_state();
    }
    BOOST_REQUIRE(start);
    BOOST_REQUIRE(!whole.empty());
    const OrderKey first = start->first;
    EventPrefetcher events(reader, d, first);
    EventWindow window(spec, std::move(start));
    const std::vector<Seen> resumed = drain(window, events);
    BOOST_TEST(resumed.size() == whole.size());
    BOOST_CHECK(resumed == whole);
}

std::uint64_t last_time(const std::string& log) {
    InputFile input(fixture(log));
    Diagnostics d;
    TimeOrderedReader reader(input, d);
    std::uint64_t last = 0;
    while (const Event* e = reader.next()) last = std::max(last, e->time);
    return last;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(window_resume)

BOOST_AUTO_TEST_CASE(time_windows_across_a_parallel_log_cut_anywhere) {
    for (const char* log : {"gc-n4.eventlog", "concurrency.eventlog", "sparks.eventlog", "nonmoving.eventlog"}) {
        const std::uint64_t end = last_time(log);
        for (int k = 1; k < 10; ++k) {
            const std::uint64_t from = end / 10 * static_cast<std::uint64_t>(k);
            BOOST_TEST_CONTEXT(log << " from " << from) {
                check_resume(log, WindowSpec{.from = from});
                check_resume(log, WindowSpec{.from = from, .to = from + end / 20});
            }
        }
    }
}

BOOST_AUTO_TEST_CASE(marker_windows) {
    check_resume("userevents.eventlog", WindowSpec{.from_marker = "before workers", .to_marker = "after workers"});
    check_resume("userevents.eventlog", WindowSpec{.from_marker = "pure marker 2"});
    check_resume("concurrency.eventlog", WindowSpec{.from_marker = "round 2"});
}

BOOST_AUTO_TEST_SUITE_END()

// Invariants of the threading analyses on real eventlogs: the fixtures (which
// may be regenerated or extended at any time, so every file found is checked)
// and the upstream ghc-events test logs beside the repository, when present.
// Each file's diagnostics are printed as test messages (--log_level=message).
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/threading/threading_analysis.hpp"
#include "eventlog/byte_source.hpp"
#include "eventlog/time_ordered_reader.hpp"
#include "eventlog_files.hpp"
#include "printing.hpp"
#include "upstream_data.hpp"
#include "util/error.hpp"

using el2fx::Diagnostics;
using namespace el2fx::analysis;
namespace fs = std::filesystem;

namespace {

using el2fx::testing::eventlogs_in;

std::string diagnostics_summary(const Diagnostics& d) {
    std::ostringstream out;
    for (std::size_t i = 0; i < el2fx::kDiagnosticCount; ++i) {
        const auto which = static_cast<el2fx::Diagnostic>(i);
        if (d.count(which)) out << ' ' << Diagnostics::info(which).id << '=' << d.count(which);
    }
    return out.str().empty() ? " none" : out.str();
}

std::uint64_t duration(std::uint64_t start, std::uint64_t end) { return end - start; }

// Per capability: the spans tile its life; the CPU deltas add up to its busy time.
void check_capability(const CapabilityTimeline& cap) {
    BOOST_TEST_CONTEXT("cap " << cap.cap) {
        std::uint64_t gc = 0, mutator = 0, idle = 0, at = cap.start;
        for (const CapabilitySpan& span : cap.spans) {
            BOOST_TEST(span.start == at);  // no gap, no overlap
            BOOST_TEST(span.start < span.end);
            at = span.end;
            const std::uint64_t d = duration(span.start, span.end);
            switch (span.activity.state) {
                case CapabilityState::gc: gc += d; break;
                case CapabilityState::mutator: mutator += d; break;
                case CapabilityState::idle: idle += d; break;
            }
        }
        BOOST_TEST(at == cap.end);
        BOOST_TEST(gc + mutator + idle == cap.end - cap.start);

        std::uint64_t cpu = 0, previous = 0;
        for (const Sample<CapabilityActivity>& s : cap.samples) {
            BOOST_TEST(s.time >= previous);
            previous = s.time;
            cpu += s.cpu_delta_ns;
        }
        BOOST_TEST(cpu == gc + mutator);
    }
}

const CapabilityTimeline* find_capability(const ThreadingResult& r, el2fx::eventlog::CapNo cap) {
    for (const CapabilityTimeline& c : r.capabilities)
        if (c.cap == cap) return &c;
    return nullptr;
}

// Whether [start, end] lies inside one mutator span of `thread` on `cap`.
bool inside_mutator_span(const CapabilityTimeline& cap, el2fx::eventlog::ThreadId thread, std::uint64_t start,
                         std::uint64_t end) {
    auto after = std::upper_bound(cap.spans.begin(), cap.spans.end(), start,
                                  [](std::uint64_t t, const CapabilitySpan& s) { return t < s.start; });
    if (after == cap.spans.begin()) return false;
    const CapabilitySpan& span = *std::prev(after);
    return span.activity == CapabilityActivity::mutator(thread) && span.end >= end;
}

// Per thread: Running spans never overlap, each lies inside a mutator span of
// the thread on its capability, and they add up to the thread's CPU deltas.
void check_thread(const ThreadingResult& r, const ThreadTimeline& thread) {
    BOOST_TEST_CONTEXT("thread " << thread.thread) {
        std::uint64_t running = 0, at = 0;
        for (const ThreadStateSpan& span : thread.spans) {
            BOOST_TEST(span.start >= at);
            BOOST_TEST(span.start <= span.end);
            at = span.end;
            if (span.activity.state != ThreadState::running) continue;
            running += duration(span.start, span.end);
            if (span.start == span.end) continue;  // an instant: capability spans of no duration are dropped
            const CapabilityTimeline* cap = find_capability(r, span.activity.cap);
            BOOST_TEST_REQUIRE(cap != nullptr);
            BOOST_TEST(inside_mutator_span(*cap, thread.thread, span.start, span.end), span);
        }
        std::uint64_t cpu = 0, previous = 0;
        for (const Sample<ThreadActivity>& s : thread.samples) {
            BOOST_TEST(s.time >= previous);
            previous = s.time;
            cpu += s.cpu_delta_ns;
        }
        BOOST_TEST(cpu == running);
    }
}

// Checks one file; returns the line that reports what it held.
std::string check_eventlog(const fs::path& path) {
    std::ostringstream report;
    report << path.filename().string() << ": ";
    BOOST_TEST_CONTEXT(path.filename().string()) {
        Diagnostics diagnostics;
        ThreadingResult result;
        try {
            el2fx::eventlog::InputFile input(path.string());
            el2fx::eventlog::TimeOrderedReader reader(input, diagnostics);
            result = analyse_threading(reader, diagnostics);
        } catch (const el2fx::Error& e) {
            BOOST_ERROR("cannot read: " << e.what());
            return report.str() + "unreadable";
        }
        std::size_t spans = 0;
        for (const CapabilityTimeline& cap : result.capabilities) {
            check_capability(cap);
            spans += cap.spans.size();
        }
        for (const ThreadTimeline& thread : result.threads) {
            check_thread(result, thread);
            spans += thread.spans.size();
        }
        report << result.capabilities.size() << " caps, " << result.threads.size() << " threads, " << spans
               << " spans; diagnostics:" << diagnostics_summary(diagnostics);
    }
    return report.str();
}

// The directory an environment variable names, or none (with a message) when unset or absent.
std::optional<fs::path> directory_from_env(const char* variable, const char* subdirectory) {
    const char* value = std::getenv(variable);
    if (!value) {
        BOOST_TEST_MESSAGE(variable << " is not set: skipped (run the tests with `meson test`)");
        return std::nullopt;
    }
    fs::path dir = fs::path(value) / subdirectory;
    if (!fs::is_directory(dir)) {
        BOOST_TEST_MESSAGE(dir.string() << " is absent: skipped");
        return std::nullopt;
    }
    return dir;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(real_eventlogs)

BOOST_AUTO_TEST_CASE(fixture_eventlogs_keep_the_threading_invariants) {
    auto dir = directory_from_env("EL2FX_FIXTURES", "");
    if (!dir) return;
    for (const fs::path& file : eventlogs_in(*dir)) {
        const std::string report = check_eventlog(file);  // not inside the macro: it logs too
        BOOST_TEST_MESSAGE(report);
    }
}

BOOST_AUTO_TEST_CASE(ghc_events_testdata_eventlogs_keep_the_threading_invariants, UPSTREAM_DATA) {
    auto dir = el2fx::testing::upstream_data_dir();
    BOOST_REQUIRE(dir);
    for (const fs::path& file : eventlogs_in(*dir)) {
        const std::string report = check_eventlog(file);  // not inside the macro: it logs too
        BOOST_TEST_MESSAGE(report);
    }
}

BOOST_AUTO_TEST_SUITE_END()

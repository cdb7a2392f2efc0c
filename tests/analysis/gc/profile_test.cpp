// The GC and heap contributor in a real conversion: markers on the process and capability
// tracks, counters, the summary in the info panel, and a profile the validator accepts.
#include <boost/test/unit_test.hpp>

#include <map>
#include <string>
#include <unistd.h>

#include "check/profile_check.hpp"
#include "temp_file.hpp"
#include "convert/converter.hpp"
#include "eventlog_builder.hpp"
#include "fxprof/profile_writer.hpp"
#include "gc_test_util.hpp"
#include "run_process.hpp"

using namespace el2fx;
using el2fx::testing::env_dir;
using el2fx::testing::EventlogBuilder;
namespace ev = el2fx::eventlog;

namespace {

fxprof::Profile convert_log(const std::string& path) {
    convert::ConversionReport report;
    convert::ConvertOptions options;
    options.marker_resolution_ns = 0;  // these tests count every collection's markers
    return convert::build_profile(path, options, report);
}

const fxprof::Thread* thread_named(const fxprof::Profile& p, const std::string& name) {
    for (const fxprof::Thread& t : p.threads())
        if (t.name == name) return &t;
    return nullptr;
}

const fxprof::Thread& process_track(const fxprof::Profile& p) {
    for (const fxprof::Thread& t : p.threads())
        if (t.is_main) return t;
    throw std::runtime_error("no process track");
}

std::map<std::string, std::size_t> marker_counts(const fxprof::Profile& p, const fxprof::Thread& t) {
    std::map<std::string, std::size_t> counts;
    t.markers.for_each(
        [&](const fxprof::MarkerRow& m) { ++counts[std::string(p.strings().get(fxprof::StringHandle(m.name)))]; });
    return counts;
}

const fxprof::Counter* counter_named(const fxprof::Profile& p, const std::string& name) {
    for (const fxprof::Counter& c : p.counters())
        if (c.name == name) return &c;
    return nullptr;
}

const fxprof::ExtraEntry* extra_entry(const fxprof::Profile& p, const std::string& section, const std::string& label) {
    for (const fxprof::ExtraSection& s : p.meta().extra)
        if (s.label == section)
            for (const fxprof::ExtraEntry& e : s.entries)
                if (e.label == label || e.label.rfind(label + " (", 0) == 0) return &e;  // with "(estimate)" etc.
    return nullptr;
}

std::vector<std::string> problems_of(const fxprof::Profile& p) {
    return check::validate_profile(fxprof::profile_to_json(p));
}

using el2fx::testing::TempFile;

const std::string kSummarySection = "GC and heap: +RTS -s, from the events";

}  // namespace

BOOST_AUTO_TEST_SUITE(gc_profile)

BOOST_AUTO_TEST_CASE(alloc_fixture_has_gc_markers_counters_and_the_summary) {
    fxprof::Profile p = convert_log(env_dir("EL2FX_FIXTURES") + "/alloc.eventlog");
    auto process = marker_counts(p, process_track(p));
    BOOST_TEST(process["GC"] == 294u);  // one per collection: the -S report has 294 lines
    BOOST_TEST(process["GC sync"] == 294u);

    const fxprof::Thread* cap0 = thread_named(p, "Capability 0");
    const fxprof::Thread* cap1 = thread_named(p, "Capability 1");
    BOOST_REQUIRE(cap0);
    BOOST_REQUIRE(cap1);
    auto c0 = marker_counts(p, *cap0);
    auto c1 = marker_counts(p, *cap1);
    BOOST_TEST(c0["GC pause"] + c1["GC pause"] == 293u + 294u);  // the exit collection ran on one capability
    BOOST_TEST(c0["GC phases"] > c0["GC pause"]);
    BOOST_TEST(c1["GC phases"] > c1["GC pause"]);

    // One counter track (the total allocation: counters come before every thread in the
    // timeline); the heap's levels are one "Heap" chart, a marker per span between changes.
    const fxprof::Counter* allocation = counter_named(p, "Allocation");
    BOOST_TEST_REQUIRE(allocation);
    BOOST_TEST(allocation->samples.size() > 10u);
    for (const char* name : {"Heap size", "Live heap", "Allocation, cap 0", "Allocation, cap 1", "Blocks size"})
        BOOST_TEST(!counter_named(p, name), name);
    BOOST_TEST(process["Heap"] > 10u);

    const fxprof::ExtraEntry* allocated = extra_entry(p, kSummarySection, "Bytes allocated in the heap");
    BOOST_REQUIRE(allocated);
    BOOST_TEST(std::get<std::string>(allocated->value.value()) == "532,401,568 bytes");  // to the byte
    BOOST_TEST(extra_entry(p, kSummarySection, "Bytes copied during GC"));
    BOOST_TEST(extra_entry(p, kSummarySection, "Gen 2"));
    BOOST_TEST(extra_entry(p, kSummarySection, "MUT time (elapsed) (estimate)"));
    BOOST_TEST(extra_entry(p, "GC per capability: the seed's conventions", "Capability 1"));

    auto problems = problems_of(p);
    BOOST_TEST(problems.empty(), (problems.empty() ? "" : problems.front()));
}

BOOST_AUTO_TEST_CASE(nonmoving_fixture_shows_the_concurrent_phases) {
    fxprof::Profile p = convert_log(env_dir("EL2FX_FIXTURES") + "/nonmoving.eventlog");
    auto process = marker_counts(p, process_track(p));
    BOOST_TEST(process["Concurrent mark"] == 49u);
    BOOST_TEST(process["Concurrent sync"] == 10u);  // 20 begin/end pairs, posted two by two
    BOOST_TEST(process["Concurrent sweep"] == 10u);
    BOOST_TEST(process["Nonmoving census"] == 120u);
    std::size_t flushes = 0;
    for (const char* cap : {"Capability 0", "Capability 1"})
        flushes += marker_counts(p, *thread_named(p, cap))["Remembered set flushed"];
    BOOST_TEST(flushes == 20u);
    auto problems = problems_of(p);
    BOOST_TEST(problems.empty(), (problems.empty() ? "" : problems.front()));
}

BOOST_AUTO_TEST_CASE(newer_heap_events_become_counters) {
    // BLOCKS_SIZE and MEM_RETURN appeared in GHC 9.2.
    EventlogBuilder b;
    b.declare_block_marker()
        .declare<ev::StartGC>()
        .declare<ev::EndGC>()
        .declare<ev::GlobalSyncGC>()
        .declare<ev::GCStatsGHC>()
        .declare<ev::HeapSize>()
        .declare<ev::BlocksSize>()
        .declare<ev::MemReturn>()
        .declare<ev::HeapAllocated>();
    b.begin_block(1000, 0, 9000);
    for (std::uint64_t i = 0; i < 3; ++i) {
        std::uint64_t t = 1000 + i * 2000;
        b.event(t, ev::StartGC{})
            .event(t + 10, ev::HeapAllocated{0, (i + 1) * 1000})
            .event(t + 100, ev::EndGC{})
            .event(t + 101, ev::GlobalSyncGC{})
            .event(t + 102, el2fx::gc::testing::stats(0, 10))
            .event(t + 103, ev::HeapSize{0, (5 - i) << 20})
            .event(t + 104, ev::BlocksSize{0, (4 - i) << 20})
            .event(t + 105, ev::MemReturn{0, static_cast<std::uint32_t>(5 - i), static_cast<std::uint32_t>(4 - i), 1});
    }
    b.end_block();
    TempFile f(b.finish());
    fxprof::Profile p = convert_log(f.path);
    const fxprof::Counter* allocation = counter_named(p, "Allocation");
    BOOST_TEST_REQUIRE(allocation);
    BOOST_TEST(allocation->samples.size() == 3u);
    auto process = marker_counts(p, process_track(p));
    BOOST_TEST(process["Heap"] >= 1u);  // heap size and blocks size on one chart
    BOOST_TEST(process["GC"] == 3u);
    BOOST_TEST(process["Memory returned to the OS"] == 3u);
    auto problems = problems_of(p);
    BOOST_TEST(problems.empty(), (problems.empty() ? "" : problems.front()));
}

BOOST_AUTO_TEST_CASE(every_fixture_with_gc_events_converts_to_a_valid_profile) {
    for (const char* name : {"concurrency", "sparks", "userevents", "killed", "profiled"}) {
        fxprof::Profile p = convert_log(env_dir("EL2FX_FIXTURES") + "/" + name + ".eventlog");
        BOOST_TEST(extra_entry(p, kSummarySection, "Bytes allocated in the heap") != nullptr, name);
        auto problems = problems_of(p);
        BOOST_TEST(problems.empty(), name << ": " << (problems.empty() ? "" : problems.front()));
    }
}

BOOST_AUTO_TEST_SUITE_END()

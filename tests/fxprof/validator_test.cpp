// The validator: the small profile passes; each class of problem, made by hand by breaking one
// thing in its JSON, is reported with its path.
#include <boost/test/unit_test.hpp>

#include <functional>

#include "check/profile_check.hpp"
#include "fxprof_test_util.hpp"

using namespace el2fx::fxprof;
using namespace el2fx::fxprof::testing;
using el2fx::check::validate_profile;

namespace {

using Doc = rapidjson::Document;
using Val = rapidjson::Value;

const std::string& good_json() {
    static const std::string json = profile_to_json(make_small_profile());
    return json;
}

std::vector<std::string> broken(const std::function<void(Doc&)>& mutate) {
    Doc doc = parse_json(good_json());
    mutate(doc);
    return validate_profile(to_text(doc));
}

bool mentions(const std::vector<std::string>& problems, const std::string& needle) {
    for (const auto& p : problems)
        if (p.find(needle) != std::string::npos) return true;
    return false;
}

std::string all(const std::vector<std::string>& problems) {
    std::string out;
    for (const auto& p : problems) out += "\n  " + p;
    return out.empty() ? " (none)" : out;
}

#define EXPECT_PROBLEM(problems, needle)                                                                    \
    do {                                                                                                    \
        const auto ps_ = (problems);                                                                        \
        BOOST_TEST(mentions(ps_, needle), "expected a problem with \"" << needle << "\", got" << all(ps_)); \
    } while (0)

Val& shared(Doc& d) { return d["shared"]; }
Val& thread0(Doc& d) { return d["threads"][0]; }
Val& thread1(Doc& d) { return d["threads"][1]; }

}  // namespace

BOOST_AUTO_TEST_SUITE(validator)

BOOST_AUTO_TEST_CASE(the_small_profile_is_valid) {
    const auto problems = validate_profile(good_json());
    BOOST_TEST(problems.empty(), "problems:" << all(problems));
}

BOOST_AUTO_TEST_CASE(not_json) {
    EXPECT_PROBLEM(validate_profile("{\"meta\": "), "JSON parse error");
    EXPECT_PROBLEM(validate_profile("[]"), "not a JSON object");
}

BOOST_AUTO_TEST_CASE(meta_problems) {
    EXPECT_PROBLEM(broken([](Doc& d) { d["meta"]["preprocessedProfileVersion"] = 71; }),
                   "meta.preprocessedProfileVersion: is not 70");
    EXPECT_PROBLEM(broken([](Doc& d) { d["meta"].RemoveMember("markerSchema"); }), "meta.markerSchema: missing");
    EXPECT_PROBLEM(broken([](Doc& d) { d["meta"].RemoveMember("startTime"); }), "meta.startTime: missing");
    EXPECT_PROBLEM(broken([](Doc& d) { d["meta"].RemoveMember("product"); }), "meta.product: missing");
    EXPECT_PROBLEM(broken([](Doc& d) { d["meta"]["symbolicated"] = false; }), "meta.symbolicated");
    EXPECT_PROBLEM(broken([](Doc& d) { d["meta"]["categories"][0]["color"] = "pink"; }), "meta.categories[0].color");
    EXPECT_PROBLEM(broken([](Doc& d) { d["meta"]["categories"][0]["color"] = "red"; }), "no grey category");
    EXPECT_PROBLEM(broken([](Doc& d) { d["meta"]["sampleUnits"]["threadCPUDelta"] = "ms"; }),
                   "meta.sampleUnits.threadCPUDelta");
    EXPECT_PROBLEM(broken([](Doc& d) {
                       Val list(rapidjson::kArrayType);
                       list.PushBack(7, d.GetAllocator());
                       d["meta"].AddMember("initialVisibleThreads", list, d.GetAllocator());
                   }),
                   "meta.initialVisibleThreads[0]: is not a thread index");
    EXPECT_PROBLEM(broken([](Doc& d) { d["meta"]["extra"][0]["entries"][0].RemoveMember("value"); }),
                   "meta.extra[0].entries[0].value: missing");
}

BOOST_AUTO_TEST_CASE(column_lengths) {
    EXPECT_PROBLEM(broken([](Doc& d) { shared(d)["frameTable"]["func"].PopBack(); }),
                   "shared.frameTable.func: has 2 entries, the table's length is 3");
    EXPECT_PROBLEM(broken([](Doc& d) { thread0(d)["samples"]["length"] = 99; }),
                   "threads[0].samples.stack: has 6 entries");
    EXPECT_PROBLEM(broken([](Doc& d) { thread0(d)["markers"]["phase"].PopBack(); }),
                   "threads[0].markers.phase: has 0 entries");
    EXPECT_PROBLEM(broken([](Doc& d) { d["counters"][0]["samples"]["count"].PopBack(); }),
                   "counters[0].samples.count: has 3 entries, the table's length is 4");
}

BOOST_AUTO_TEST_CASE(required_columns_and_tables) {
    EXPECT_PROBLEM(broken([](Doc& d) { shared(d)["funcTable"].RemoveMember("relevantForJS"); }),
                   "shared.funcTable.relevantForJS: missing");
    EXPECT_PROBLEM(broken([](Doc& d) { shared(d)["frameTable"].RemoveMember("originalLocation"); }),
                   "shared.frameTable.originalLocation: missing");
    EXPECT_PROBLEM(broken([](Doc& d) { shared(d).RemoveMember("sources"); }), "shared.sources: missing");
    EXPECT_PROBLEM(broken([](Doc& d) { shared(d).RemoveMember("stringArray"); }), "shared.stringArray: missing");
    EXPECT_PROBLEM(broken([](Doc& d) { thread0(d)["markers"].RemoveMember("phase"); }),
                   "threads[0].markers.phase: missing");
    EXPECT_PROBLEM(broken([](Doc& d) { thread0(d)["pid"] = 1234; }), "threads[0].pid: is not a string");
}

BOOST_AUTO_TEST_CASE(stack_table_problems) {
    EXPECT_PROBLEM(broken([](Doc& d) { shared(d)["stackTable"]["frame"][1] = 17; }),
                   "shared.stackTable.frame[1]: is not an index into the frame table");
    EXPECT_PROBLEM(broken([](Doc& d) { shared(d)["stackTable"]["prefixOffset"][1] = 2; }),
                   "shared.stackTable.prefixOffset[1]: does not point to an earlier stack");
    EXPECT_PROBLEM(broken([](Doc& d) { shared(d)["stackTable"]["prefixOffset"][2] = -1; }),
                   "shared.stackTable.prefixOffset[2]");
    EXPECT_PROBLEM(broken([](Doc& d) {
                       Val prefix(rapidjson::kArrayType);
                       shared(d)["stackTable"].AddMember("prefix", prefix, d.GetAllocator());
                   }),
                   "shared.stackTable.prefix: is not a v70 column");
}

BOOST_AUTO_TEST_CASE(frame_and_func_indexes) {
    EXPECT_PROBLEM(broken([](Doc& d) { shared(d)["frameTable"]["func"][0] = 3; }),
                   "shared.frameTable.func[0]: is not an index into the func table");
    EXPECT_PROBLEM(broken([](Doc& d) { shared(d)["frameTable"]["category"][0] = 9; }),
                   "shared.frameTable.category[0]: is not an index into meta.categories");
    EXPECT_PROBLEM(broken([](Doc& d) { shared(d)["frameTable"]["subcategory"][1] = 5; }),
                   "shared.frameTable.subcategory[1]: is not a subcategory of category 1");
    EXPECT_PROBLEM(broken([](Doc& d) { shared(d)["frameTable"]["subcategory"][0].SetNull(); }),
                   "shared.frameTable.subcategory[0]: is not an index although the category is set");
    EXPECT_PROBLEM(broken([](Doc& d) { shared(d)["funcTable"]["name"][0] = 1000; }),
                   "shared.funcTable.name[0]: is not an index into the string table");
    EXPECT_PROBLEM(broken([](Doc& d) { shared(d)["funcTable"]["resource"][0] = 4; }),
                   "shared.funcTable.resource[0]: is not an index into the resource table");
    EXPECT_PROBLEM(broken([](Doc& d) { shared(d)["funcTable"]["source"][0] = 4; }),
                   "shared.funcTable.source[0]: is not an index into the sources table");
    EXPECT_PROBLEM(broken([](Doc& d) { shared(d)["sources"]["filename"][0] = 1000; }), "shared.sources.filename[0]");
    EXPECT_PROBLEM(broken([](Doc& d) { shared(d)["resourceTable"]["name"][0] = "prog"; }),
                   "shared.resourceTable.name[0]");
}

BOOST_AUTO_TEST_CASE(sample_problems) {
    EXPECT_PROBLEM(broken([](Doc& d) { thread0(d)["samples"]["timeDeltas"][3] = -0.5; }),
                   "threads[0].samples.timeDeltas[3]: is negative (not time-ordered)");
    EXPECT_PROBLEM(broken([](Doc& d) {
                       Val& s = thread0(d)["samples"];
                       Val time(rapidjson::kArrayType);
                       for (double t : {0.0, 1.5, 1.0, 4.5, 6.0, 7.5}) time.PushBack(t, d.GetAllocator());
                       s.RemoveMember("timeDeltas");
                       s.AddMember("time", time, d.GetAllocator());
                   }),
                   "threads[0].samples.time[2]: is earlier than the previous one");
    EXPECT_PROBLEM(broken([](Doc& d) { thread0(d)["samples"].RemoveMember("timeDeltas"); }),
                   "threads[0].samples: has neither time nor timeDeltas");
    EXPECT_PROBLEM(broken([](Doc& d) { thread0(d)["samples"]["stack"][0] = 3; }),
                   "threads[0].samples.stack[0]: is not an index into the stack table");
    EXPECT_PROBLEM(broken([](Doc& d) { thread0(d)["samples"]["threadCPUDelta"].PopBack(); }),
                   "threads[0].samples.threadCPUDelta");
    EXPECT_PROBLEM(broken([](Doc& d) { thread1(d)["samples"]["weight"][0] = "heavy"; }),
                   "threads[1].samples.weight[0]: is not a number");
}

BOOST_AUTO_TEST_CASE(marker_problems) {
    EXPECT_PROBLEM(broken([](Doc& d) { thread0(d)["markers"]["data"][0]["type"] = "Nope"; }),
                   "threads[0].markers.data[0].type: \"Nope\" has no marker schema");
    {  // A field without a value is no problem: the profiler skips it (tooltip, sidebar, search).
        const auto absent = broken([](Doc& d) { thread0(d)["markers"]["data"][0].RemoveMember("copied"); });
        BOOST_TEST(absent.empty(), "problems:" << all(absent));
    }
    EXPECT_PROBLEM(broken([](Doc& d) { thread0(d)["markers"]["data"][0]["gen"] = "one"; }),
                   "threads[0].markers.data[0].gen: is not a number");
    EXPECT_PROBLEM(broken([](Doc& d) { thread0(d)["markers"]["data"][0]["reason"] = 5000; }),
                   "threads[0].markers.data[0].reason: is not an index into the string table");
    EXPECT_PROBLEM(broken([](Doc& d) { thread1(d)["markers"]["data"][0]["text"] = 3; }),
                   "threads[1].markers.data[0].text: is not a string");
    EXPECT_PROBLEM(broken([](Doc& d) { thread0(d)["markers"]["endTime"][0].SetNull(); }),
                   "threads[0].markers.endTime[0]: is not a number");
    EXPECT_PROBLEM(broken([](Doc& d) { thread0(d)["markers"]["endTime"][0] = 1.0; }),
                   "threads[0].markers.endTime[0]: is before the start time");
    EXPECT_PROBLEM(broken([](Doc& d) { thread0(d)["markers"]["phase"][0] = 7; }),
                   "threads[0].markers.phase[0]: is not a marker phase");
    EXPECT_PROBLEM(broken([](Doc& d) { thread0(d)["markers"]["name"][0] = 5000; }),
                   "threads[0].markers.name[0]: is not an index into the string table");
    EXPECT_PROBLEM(broken([](Doc& d) { thread0(d)["markers"]["category"][0] = 42; }), "threads[0].markers.category[0]");
    EXPECT_PROBLEM(broken([](Doc& d) { d["meta"]["markerSchema"][0]["fields"][0]["format"] = "weird"; }),
                   "meta.markerSchema[0].fields[0].format: is not a field format");
    EXPECT_PROBLEM(broken([](Doc& d) { d["meta"]["markerSchema"][0]["graphs"][0]["key"] = "reason"; }),
                   "meta.markerSchema[0].graphs[0].key: is not a numeric field");
    EXPECT_PROBLEM(broken([](Doc& d) { d["meta"]["markerSchema"][1]["name"] = "GC"; }),
                   "meta.markerSchema[1].name: is declared twice");
}

BOOST_AUTO_TEST_CASE(counter_problems) {
    EXPECT_PROBLEM(broken([](Doc& d) { d["counters"][0].RemoveMember("display"); }), "counters[0].display: missing");
    EXPECT_PROBLEM(broken([](Doc& d) { d["counters"][0]["display"]["graphType"] = "bars"; }),
                   "counters[0].display.graphType");
    EXPECT_PROBLEM(broken([](Doc& d) { d["counters"][0]["display"].RemoveMember("tooltipRows"); }),
                   "counters[0].display.tooltipRows: missing");
    EXPECT_PROBLEM(broken([](Doc& d) { d["counters"][0]["pid"] = "999"; }),
                   "counters[0].pid: is not the pid of any thread");
    EXPECT_PROBLEM(broken([](Doc& d) { d["counters"][0]["mainThreadIndex"] = 5; }),
                   "counters[0].mainThreadIndex: is not a thread index");
    EXPECT_PROBLEM(broken([](Doc& d) { d["counters"][1]["samples"]["timeDeltas"][1] = -1; }),
                   "counters[1].samples.timeDeltas[1]: is negative");
}

BOOST_AUTO_TEST_CASE(problems_are_capped) {
    const auto problems = broken([](Doc& d) {
        Val& frames = shared(d)["stackTable"]["frame"];
        Val& offsets = shared(d)["stackTable"]["prefixOffset"];
        for (int i = 0; i < 1000; ++i) {
            frames.PushBack(1000, d.GetAllocator());
            offsets.PushBack(5000, d.GetAllocator());
        }
        shared(d)["stackTable"]["length"] = frames.Size();
    });
    BOOST_TEST(problems.size() < 400u);
    BOOST_TEST(problems.back() == "(more problems not listed)");
}

BOOST_AUTO_TEST_SUITE_END()

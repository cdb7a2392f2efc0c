// The user-event, spark and runtime contributors in whole conversions: synthetic
// eventlogs for exact expectations, the real fixtures and upstream logs for the rest.
// Every profile must also pass the validator.
#include <boost/test/unit_test.hpp>

#include <array>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <unistd.h>

#include "check/profile_check.hpp"
#include "convert/converter.hpp"
#include "eventlog_builder.hpp"
#include "fxprof/profile_writer.hpp"
#include "run_process.hpp"
#include "upstream_data.hpp"
#include "util/rapidjson.hpp"

namespace fs = std::filesystem;
using namespace el2fx;
using namespace el2fx::eventlog;
using el2fx::testing::env_dir;
using el2fx::testing::EventlogBuilder;
using el2fx::testing::upstream_log;

namespace {

struct Marker {
    std::string thread;  // the track
    std::string name;
    int phase = 0;
    double start = 0;
    std::optional<double> end;
    const rapidjson::Value* data = nullptr;

    std::string str(const char* key) const {
        if (!data || !data->HasMember(key) || !(*data)[key].IsString()) return {};
        return (*data)[key].GetString();
    }
    std::int64_t num(const char* key) const {
        if (!data || !data->HasMember(key) || !(*data)[key].IsNumber()) return -1;
        return (*data)[key].GetInt64();
    }
    std::string type() const { return str("type"); }
};

struct Converted {
    convert::ConversionReport report;
    std::string json;
    rapidjson::Document doc;
    std::vector<std::string> problems;

    std::vector<Marker> markers(const std::string& track = {}) const {
        std::vector<Marker> out;
        const auto& strings = doc["shared"]["stringArray"];
        for (const auto& t : doc["threads"].GetArray()) {
            std::string name = t["name"].GetString();
            if (!track.empty() && name != track) continue;
            const auto& m = t["markers"];
            for (rapidjson::SizeType i = 0; i < m["length"].GetUint(); ++i) {
                Marker k;
                k.thread = name;
                k.name = strings[m["name"][i].GetUint()].GetString();
                k.phase = m["phase"][i].GetInt();
                k.start = m["startTime"][i].IsNull() ? 0 : m["startTime"][i].GetDouble();
                if (!m["endTime"][i].IsNull()) k.end = m["endTime"][i].GetDouble();
                if (m["data"][i].IsObject()) k.data = &m["data"][i];
                out.push_back(k);
            }
        }
        return out;
    }
    std::vector<Marker> of_type(const std::string& type, const std::string& track = {}) const {
        std::vector<Marker> out;
        for (Marker& m : markers(track))
            if (m.type() == type) out.push_back(m);
        return out;
    }
    bool has_track(const std::string& name) const {
        for (const auto& t : doc["threads"].GetArray())
            if (t["name"].GetString() == name) return true;
        return false;
    }
    // The extra section's entry, as text ("" when absent).
    std::string extra(const std::string& section, const std::string& label) const {
        for (const auto& s : doc["meta"]["extra"].GetArray()) {
            if (s["label"].GetString() != section) continue;
            for (const auto& e : s["entries"].GetArray()) {
                if (e["label"].GetString() != label) continue;
                if (e["value"].IsString()) return e["value"].GetString();
                if (e["value"].IsInt64()) return std::to_string(e["value"].GetInt64());
            }
        }
        return {};
    }
};

Converted convert_file(const std::string& path, convert::ConvertOptions options = {}) {
    Converted c;
    fxprof::Profile profile = convert::build_profile(path, options, c.report);
    c.json = fxprof::profile_to_json(profile);
    c.doc.Parse(c.json.data(), c.json.size());
    BOOST_REQUIRE(!c.doc.HasParseError());
    c.problems = check::validate_profile(c.json);
    BOOST_TEST(c.problems.empty(), path << ": " << (c.problems.empty() ? "" : c.problems.front()));
    return c;
}

struct TempFile {
    fs::path path;
    explicit TempFile(const std::string& bytes) {
        static int n = 0;
        path = fs::temp_directory_path() /
               ("el2fx-events-" + std::to_string(::getpid()) + "-" + std::to_string(n++) + ".eventlog");
        std::ofstream(path, std::ios::binary) << bytes;
    }
    ~TempFile() { fs::remove(path); }
};

Converted convert_bytes(const std::string& bytes, convert::ConvertOptions options = {}) {
    TempFile f(bytes);
    return convert_file(f.path.string(), options);
}

std::string fixture(const std::string& name) { return env_dir("EL2FX_FIXTURES") + "/" + name; }

std::optional<std::string> shared_log(const std::string& name) { return upstream_log(name); }

EventlogBuilder scheduler_types() {
    EventlogBuilder b;
    b.declare_block_marker()
        .declare<CreateThread>()
        .declare<RunThread>()
        .declare<StopThread>()
        .declare<MigrateThread>()
        .declare<ThreadLabel>()
        .declare<UserMessage>()
        .declare<UserMarker>();
    return b;
}

UserMessage msg(std::string_view text) { return UserMessage{Text{text}}; }
constexpr std::uint16_t kYield = 3, kFinished = 5;

// The marker of this name, or the user marker with this text (traceMarker) or span name
// (spans, unmatched span messages).
const Marker* find(const std::vector<Marker>& ms, const std::string& text) {
    for (const Marker& m : ms)
        if (m.name == text || m.str("text") == text || m.str("span") == text) return &m;
    return nullptr;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(user_events_profile)

BOOST_AUTO_TEST_CASE(spans_pair_per_haskell_thread_across_capabilities) {
    EventlogBuilder b = scheduler_types();
    b.begin_block(0, 0);
    b.event(10, CreateThread{1}).event(20, RunThread{1});
    b.event(30, msg("START x")).event(32, msg("START y")).event(45, msg("STOP x"));
    b.event(46, StopThread{1, kYield, 0}).event(47, MigrateThread{1, 1});
    b.end_block();
    b.begin_block(1, 1);
    b.event(11, CreateThread{2}).event(21, RunThread{2});
    b.event(31, msg("START x")).event(60, msg("STOP x")).event(61, StopThread{2, kFinished, 0});
    b.event(65, RunThread{1}).event(70, msg("STOP y")).event(71, msg("STOP z")).event(72, StopThread{1, kFinished, 0});
    b.end_block();
    Converted c = convert_bytes(b.finish());

    auto t1 = c.of_type("UserSpan", "thread 1");
    auto t2 = c.of_type("UserSpan", "thread 2");
    BOOST_REQUIRE(t1.size() == 2u);
    BOOST_REQUIRE(t2.size() == 1u);
    const Marker* x1 = find(t1, "x");
    const Marker* y1 = find(t1, "y");
    BOOST_REQUIRE(x1);
    BOOST_REQUIRE(y1);
    BOOST_TEST(x1->phase == 1);
    BOOST_TEST(x1->start == 30e-6);  // ms
    BOOST_TEST(*x1->end == 45e-6);
    BOOST_TEST(y1->start == 32e-6);  // opened on capability 0, closed on capability 1
    BOOST_TEST(*y1->end == 70e-6);
    BOOST_TEST(t2[0].name == "START/STOP span");  // the row: the kind; the name is a field
    BOOST_TEST(t2[0].str("span") == "x");
    BOOST_TEST(t2[0].start == 31e-6);
    BOOST_TEST(*t2[0].end == 60e-6);
    BOOST_TEST(t2[0].str("thread") == "thread 2");

    auto unmatched = c.of_type("UserSpanUnmatched");
    BOOST_REQUIRE(unmatched.size() == 1u);
    BOOST_TEST(unmatched[0].thread == "thread 1");
    BOOST_TEST(unmatched[0].name == "Unmatched span message");
    BOOST_TEST(unmatched[0].str("span") == "z");
    BOOST_TEST(unmatched[0].phase == 0);
    BOOST_TEST(unmatched[0].str("message") == "STOP z");
    BOOST_TEST(c.report.diagnostics.count(Diagnostic::user_span_stop_without_start) == 1u);
    BOOST_TEST(c.report.diagnostics.count(Diagnostic::user_span_start_without_stop) == 0u);
}

BOOST_AUTO_TEST_CASE(markers_name_the_thread_by_its_label_at_that_time) {
    EventlogBuilder b = scheduler_types();
    b.begin_block(0, 0);
    b.event(10, CreateThread{1}).event(20, RunThread{1});
    b.event(30, ThreadLabel{1, Text{"first"}}).event(40, UserMarker{Text{"m1"}});
    b.event(50, ThreadLabel{1, Text{"second"}}).event(60, UserMarker{Text{"m2"}});
    b.event(70, StopThread{1, kFinished, 0});
    b.end_block();
    Converted c = convert_bytes(b.finish());

    BOOST_TEST(c.has_track("1 second"));  // the track takes the last label
    auto ms = c.of_type("UserMarker", "1 second");
    BOOST_REQUIRE(ms.size() == 2u);
    BOOST_TEST(find(ms, "m1")->str("thread") == "1 first");
    BOOST_TEST(find(ms, "m2")->str("thread") == "1 second");
    auto labels = c.of_type("ThreadLabelled", "1 second");
    BOOST_REQUIRE(labels.size() == 2u);  // every label is kept as a marker
    BOOST_TEST(labels[0].str("label") == "first");
    BOOST_TEST(labels[1].str("label") == "second");
    // The process track repeats traceMarker markers, so they are found in one place.
    auto process = c.of_type("UserMarker", c.doc["threads"][0]["name"].GetString());
    BOOST_TEST(process.size() == 2u);
}

BOOST_AUTO_TEST_CASE(events_with_no_thread_running_go_to_the_capability) {
    EventlogBuilder b = scheduler_types();
    b.begin_block(0, 0);
    b.event(10, CreateThread{1}).event(20, RunThread{1}).event(30, StopThread{1, kFinished, 0});
    b.event(40, msg("between threads")).event(41, msg("START idle-span")).event(42, msg("STOP idle-span"));
    b.end_block();
    Converted c = convert_bytes(b.finish());
    auto messages = c.of_type("UserMessage", "Capability 0");
    BOOST_REQUIRE(messages.size() == 1u);
    BOOST_TEST(messages[0].str("thread") == "capability 0 (no Haskell thread running)");
    BOOST_TEST(messages[0].num("threadId") == -1);
    BOOST_TEST(c.of_type("UserSpan", "Capability 0").size() == 1u);
}

BOOST_AUTO_TEST_CASE(the_userevents_fixture_shows_every_user_event) {
    Converted c = convert_file(fixture("userevents.eventlog"));
    // One marker-chart row (marker name) per kind of user event on each track, whatever the
    // texts: they are fields, shown as the markers' labels.
    const std::map<std::string, std::string> row_of_type = {{"UserMessage", "traceEvent"},
                                                            {"UserMarker", "traceMarker"},
                                                            {"UserBinaryMessage", "traceBinaryEvent"},
                                                            {"UserSpan", "START/STOP span"},
                                                            {"UserSpanUnmatched", "Unmatched span message"}};
    std::map<std::string, std::set<std::string>> rows;  // type -> marker names
    for (const Marker& m : c.markers())
        if (row_of_type.count(m.type())) rows[m.type()].insert(m.name);
    BOOST_TEST(rows.size() == row_of_type.size());
    for (const auto& [type, names] : rows) BOOST_TEST((names == std::set<std::string>{row_of_type.at(type)}), type);
    // START/STOP: nested on main, the same name on three threads at once.
    auto main_spans = c.of_type("UserSpan", "1 main");
    const Marker* outer = find(main_spans, "outer");
    const Marker* inner = find(main_spans, "inner");
    BOOST_REQUIRE(outer);
    BOOST_REQUIRE(inner);
    BOOST_TEST(outer->start < inner->start);
    BOOST_TEST(*inner->end < *outer->end);
    BOOST_TEST(inner->num("depth") == outer->num("depth") + 1);
    BOOST_TEST(find(main_spans, "café-phase"));
    for (int i = 1; i <= 3; ++i) {
        std::string track = std::to_string(i + 1) + " user-thread-" + std::to_string(i);
        auto spans = c.of_type("UserSpan", track);
        BOOST_TEST(find(spans, "shared-phase"), track);
        BOOST_TEST(find(spans, "work-" + std::to_string(i)), track);
        BOOST_TEST(spans.size() == 2u, track);
    }
    // The orphan STOP and the START never stopped: reported, counted, shown.
    auto unmatched = c.of_type("UserSpanUnmatched", "1 main");
    BOOST_REQUIRE(unmatched.size() == 2u);
    BOOST_TEST(find(unmatched, "orphan")->str("problem") == "STOP without START on this thread");
    BOOST_TEST(find(unmatched, "never-stopped")->str("problem") == "START never stopped on this thread");
    BOOST_TEST(c.report.diagnostics.count(Diagnostic::user_span_stop_without_start) == 1u);
    BOOST_TEST(c.report.diagnostics.count(Diagnostic::user_span_start_without_stop) == 1u);

    // traceMarker: on the emitting thread and on the process track, text intact.
    std::string process = c.doc["threads"][0]["name"].GetString();
    BOOST_TEST(c.of_type("UserMarker", process).size() == 8u);
    BOOST_TEST(find(c.of_type("UserMarker", "1 main"), "marqueur étape 2 — ünïcødé ✓"));
    BOOST_TEST(find(c.of_type("UserMarker", "3 user-thread-2"), "pure marker 2"));

    // traceEvent: log markers with the text, newlines and all.
    std::vector<std::string> messages;
    for (const Marker& m : c.of_type("UserMessage")) messages.push_back(m.str("message"));
    auto has = [&](const std::string& s) { return std::find(messages.begin(), messages.end(), s) != messages.end(); };
    BOOST_TEST(has("Grüße, ελληνικά, 日本語, emoji 🎉 (UTF-8)"));
    BOOST_TEST(has("line one\nline two"));
    BOOST_TEST(has("thread 2 starting"));
    BOOST_TEST(!has("START outer"));           // span messages become spans
    BOOST_TEST(messages.size() == 29u - 20u);  // 29 messages, 20 of them span edges (9 pairs, 2 unmatched)

    // traceBinaryEvent: length and previews.
    auto binary = c.of_type("UserBinaryMessage");
    BOOST_REQUIRE(binary.size() == 5u);
    std::map<std::int64_t, int> lengths;
    for (const Marker& m : binary) ++lengths[m.num("length")];
    BOOST_TEST(lengths[8] == 3);
    BOOST_TEST(lengths[0] == 1);
    BOOST_TEST(lengths[256] == 1);
    auto thread1_binary = c.of_type("UserBinaryMessage", "2 user-thread-1");
    BOOST_REQUIRE(thread1_binary.size() == 1u);
    const Marker* first = &thread1_binary[0];
    BOOST_TEST(first->str("hex") == "01 00 01 02 ff fe 80 00");
    BOOST_TEST(first->str("encoding") == "binary (not UTF-8)");
    BOOST_TEST(c.extra("User events", "Paired spans") == "9");
}

BOOST_AUTO_TEST_CASE(no_user_messages_keeps_spans_and_markers) {
    convert::ConvertOptions options;
    options.user_messages = false;
    Converted c = convert_file(fixture("userevents.eventlog"), options);
    BOOST_TEST(c.of_type("UserMessage").empty());
    BOOST_TEST(c.of_type("UserSpan").size() == 9u);
    BOOST_TEST(c.of_type("UserSpanUnmatched").size() == 2u);
    BOOST_TEST(!c.of_type("UserMarker").empty());
    BOOST_TEST(c.of_type("UserBinaryMessage").size() == 5u);
}

BOOST_AUTO_TEST_CASE(upstream_unicode_and_binary_logs, UPSTREAM_DATA) {
    if (auto path = shared_log("unicode.eventlog")) {
        Converted c = convert_file(*path);
        auto messages = c.of_type("UserMessage");
        BOOST_REQUIRE(messages.size() == 1u);
        BOOST_TEST(messages[0].str("message") == "こんにちは");
    }
    if (auto path = shared_log("trace-binary-event.eventlog")) {
        Converted c = convert_file(*path);
        auto binary = c.of_type("UserBinaryMessage");
        BOOST_REQUIRE(binary.size() == 1u);
        BOOST_TEST(binary[0].str("text").rfind("Hello, ", 0) == 0u);
    }
    if (auto path = shared_log("trace-binary-nonutf.eventlog")) {
        Converted c = convert_file(*path);
        auto binary = c.of_type("UserBinaryMessage");
        BOOST_REQUIRE(binary.size() == 1u);
        BOOST_TEST(binary[0].str("encoding") == "binary (not UTF-8)");
        BOOST_TEST(binary[0].str("hex").rfind("00 01 02 03", 0) == 0u);
    }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(sparks_profile)

// Raw SPARK_COUNTERS bytes in the order eventlog-facts.md gives (created, dud,
// overflowed, converted, gcd, fizzled, remaining): the decoder table, the collector
// and the tracks must agree on which number is which.
std::string spark_counters_bytes(std::array<std::uint64_t, 7> wire) {
    std::string out;
    for (std::uint64_t v : wire) field_io::put_int(out, v);
    return out;
}

double rate(const Marker& m, const char* key) {
    return m.data && m.data->HasMember(key) && (*m.data)[key].IsNumber() ? (*m.data)[key].GetDouble() : -1;
}

BOOST_AUTO_TEST_CASE(spark_counters_become_rates_by_field_name) {
    EventlogBuilder b = scheduler_types();
    b.declare<SparkCounters>().declare<SparkCreate>().declare<SparkSteal>();
    b.begin_block(0, 0);
    b.event(10, CreateThread{1}).event(20, RunThread{1});
    b.raw_event(SparkCounters::tag, 100, spark_counters_bytes({1, 2, 3, 4, 5, 6, 7}));
    b.event(110, SparkCreate{}).event(111, SparkCreate{}).event(120, SparkSteal{1});
    b.raw_event(SparkCounters::tag, 200, spark_counters_bytes({11, 20, 30, 40, 50, 60, 5}));
    b.event(300, StopThread{1, kFinished, 0});
    b.end_block();
    TempFile f(b.finish());
    convert::ConvertOptions exact;
    exact.marker_resolution_ns = 0;  // every span between samples its own marker
    Converted c = convert_file(f.path.string(), exact);
    // One span between the two samples, 100 ns long: the growth of each series per ms.
    auto rates = c.of_type("SparkRates", "Capability 0");
    BOOST_REQUIRE(rates.size() == 1u);
    BOOST_TEST(rates[0].name == "Spark rates (cap 0)");
    BOOST_TEST(rates[0].phase == 1);
    BOOST_TEST(rate(rates[0], "created") == 10 * 1e4);     // 1 -> 11 in 100 ns
    BOOST_TEST(rate(rates[0], "dud") == 18 * 1e4);         // 2 -> 20
    BOOST_TEST(rate(rates[0], "overflowed") == 27 * 1e4);  // 3 -> 30
    BOOST_TEST(rate(rates[0], "converted") == 36 * 1e4);   // 4 -> 40
    BOOST_TEST(rate(rates[0], "gcd") == 45 * 1e4);         // 5 -> 50
    BOOST_TEST(rate(rates[0], "fizzled") == 54 * 1e4);     // 6 -> 60
    BOOST_TEST(rates[0].num("poolStart") == 7);
    BOOST_TEST(rates[0].num("poolEnd") == 5);
    BOOST_TEST(c.doc["counters"].Size() <= 3u);  // the runtime's memory counters only: no spark counters

    BOOST_TEST(c.extra("Sparks", "Totals (as +RTS -s)") ==
               "SPARKS: 61 (40 converted, 30 overflowed, 20 dud, 50 GC'd, 60 fizzled)");
    auto created = c.of_type("SparkEvents", "Capability 0");
    BOOST_REQUIRE(created.size() == 1u);  // two creates 1 µs apart: one burst
    BOOST_TEST(created[0].name == "Spark created");
    BOOST_TEST(created[0].num("count") == 2);
    BOOST_TEST(created[0].phase == 1);
    auto steals = c.of_type("SparkSteal", "Capability 0");
    BOOST_REQUIRE(steals.size() == 1u);
    BOOST_TEST(steals[0].num("victim") == 1);
    BOOST_TEST(steals[0].phase == 0);  // a lone event stays an instant
}

BOOST_AUTO_TEST_CASE(the_sparks_fixture_matches_the_rts_summary) {
    Converted c = convert_file(fixture("sparks.eventlog"));
    std::ifstream s(fixture("sparks.S.txt"));
    std::string text{std::istreambuf_iterator<char>(s), {}};
    std::smatch m;
    BOOST_REQUIRE(std::regex_search(text, m, std::regex("SPARKS: [^\n]*\\)")));
    BOOST_TEST(c.extra("Sparks", "Totals (as +RTS -s)") == m.str());

    // Every spark event is in exactly one marker, on its capability.
    std::map<std::string, std::int64_t> counted;
    for (const char* type : {"SparkEvents", "SparkSteal"})
        for (const Marker& k : c.of_type(type)) {
            BOOST_TEST(k.thread.rfind("Capability ", 0) == 0u);
            counted[k.name] += k.num("count");
        }
    const auto& by_tag = c.report.run.events_by_tag;
    BOOST_TEST(counted["Spark created"] == static_cast<std::int64_t>(by_tag[SparkCreate::tag]));
    BOOST_TEST(counted["Spark overflowed"] == static_cast<std::int64_t>(by_tag[SparkOverflow::tag]));
    BOOST_TEST(counted["Spark stolen"] == static_cast<std::int64_t>(by_tag[SparkSteal::tag]));
    BOOST_TEST(counted["Spark GC'd"] == static_cast<std::int64_t>(by_tag[SparkGC::tag]));
    BOOST_TEST(c.of_type("SparkEvents").size() + c.of_type("SparkSteal").size() < 400u);  // bursts, not 3700 markers
    BOOST_TEST(c.of_type("SparkThreadCreated").size() == by_tag[CreateSparkThread::tag]);

    // One rate track per capability (a marker-graph track of one marker name per capability),
    // and no spark counter tracks, which the profiler would put above the capabilities.
    for (const auto& k : c.doc["counters"].GetArray())
        BOOST_TEST(std::string(k["name"].GetString()).find("park") == std::string::npos, k["name"].GetString());
    std::map<std::string, std::set<std::string>> rate_rows;  // track -> marker names
    std::map<std::string, double> created;                   // sparks created per track, from the rates
    for (const Marker& m : c.of_type("SparkRates")) {
        rate_rows[m.thread].insert(m.name);
        BOOST_REQUIRE(m.end);
        created[m.thread] += rate(m, "created") * (*m.end - m.start);
    }
    BOOST_REQUIRE(rate_rows.size() == 2u);
    BOOST_TEST((rate_rows["Capability 0"] == std::set<std::string>{"Spark rates (cap 0)"}));
    BOOST_TEST((rate_rows["Capability 1"] == std::set<std::string>{"Spark rates (cap 1)"}));
    // The rates add up to the counts the RTS reports (created, per capability's last sample).
    double total_created = created["Capability 0"] + created["Capability 1"];
    BOOST_TEST(std::abs(total_created - std::stod(c.extra("Sparks", "Created (put into a pool)"))) < 0.5);
    // The schema draws every rate on one track, and a zero line so that the scale starts at 0.
    for (const auto& s : c.doc["meta"]["markerSchema"].GetArray()) {
        if (std::string(s["name"].GetString()) != "SparkRates") continue;
        std::set<std::string> keys;
        for (const auto& g : s["graphs"].GetArray()) keys.insert(g["key"].GetString());
        BOOST_TEST(
            (keys == std::set<std::string>{"created", "converted", "fizzled", "gcd", "overflowed", "dud", "zero"}));
    }
}

BOOST_AUTO_TEST_CASE(a_gap_of_zero_gives_one_marker_per_spark_event) {
    convert::ConvertOptions options;
    options.spark_burst_gap_ns = 0;
    Converted c = convert_file(fixture("sparks.eventlog"), options);
    std::uint64_t events = 0;
    for (std::uint16_t tag = SparkCreate::tag; tag <= SparkGC::tag; ++tag) events += c.report.run.events_by_tag[tag];
    BOOST_TEST(c.of_type("SparkEvents").size() + c.of_type("SparkSteal").size() == events);
}

BOOST_AUTO_TEST_CASE(four_capabilities_get_one_spark_rate_track_each) {
    EventlogBuilder b = scheduler_types();
    b.declare<SparkCounters>();
    for (std::uint16_t cap = 0; cap < 4; ++cap) {
        b.begin_block(cap, cap);
        b.event(10 + cap, CreateThread{cap + 1u}).event(20 + cap, RunThread{cap + 1u});
        b.raw_event(SparkCounters::tag, 100 + cap, spark_counters_bytes({0, 0, 0, 0, 0, 0, 0}));
        b.raw_event(SparkCounters::tag, 2'000'100 + cap, spark_counters_bytes({10u * (cap + 1), 0, 0, 5, 0, 1, 3}));
        b.event(3'000'000 + cap, StopThread{cap + 1u, kFinished, 0});
        b.end_block();
    }
    Converted c = convert_bytes(b.finish());
    std::map<std::string, std::set<std::string>> rows;  // track -> rate marker names
    for (const Marker& m : c.of_type("SparkRates")) {
        rows[m.thread].insert(m.name);
        // 10 (cap + 1) sparks created in 2 ms.
        BOOST_TEST(rate(m, "created") == 5.0 * (m.thread.back() - '0' + 1), m.thread);
        BOOST_TEST(rate(m, "converted") == 2.5);
    }
    BOOST_REQUIRE(rows.size() == 4u);
    for (int cap = 0; cap < 4; ++cap)
        BOOST_TEST((rows["Capability " + std::to_string(cap)] ==
                    std::set<std::string>{"Spark rates (cap " + std::to_string(cap) + ")"}));
    for (const auto& k : c.doc["counters"].GetArray())
        BOOST_TEST(std::string(k["name"].GetString()).find("park") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(many_capabilities_share_one_spark_rate_track) {
    EventlogBuilder b = scheduler_types();
    b.declare<SparkCounters>();
    for (std::uint16_t cap = 0; cap < 9; ++cap) {
        b.begin_block(cap, cap);
        b.event(10 + cap, CreateThread{cap + 1u}).event(20 + cap, RunThread{cap + 1u});
        b.raw_event(SparkCounters::tag, 100 + cap, spark_counters_bytes({0, 0, 0, 0, 0, 0, 0}));
        b.raw_event(SparkCounters::tag, 200 + cap, spark_counters_bytes({cap + 1u, 0, 0, 1, 0, 0, 2}));
        b.event(300 + cap, StopThread{cap + 1u, kFinished, 0});
        b.end_block();
    }
    convert::ConvertOptions exact;
    exact.marker_resolution_ns = 0;
    Converted c = convert_bytes(b.finish(), exact);
    std::string process = c.doc["threads"][0]["name"].GetString();
    auto rates = c.of_type("SparkRates");
    BOOST_REQUIRE(!rates.empty());
    double created = 0;
    for (const Marker& m : rates) {
        BOOST_TEST(m.thread == process);
        BOOST_TEST(m.name == "Spark rates (all 9 caps)");
        created += rate(m, "created") * (*m.end - m.start);
    }
    BOOST_TEST(std::abs(created - (1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9)) < 1e-6);
    BOOST_TEST(rates.back().num("poolEnd") == 18);
}

BOOST_AUTO_TEST_CASE(a_program_without_sparks_gets_no_spark_tracks) {
    Converted c = convert_file(fixture("concurrency.eventlog"));  // SPARK_COUNTERS, all zero
    BOOST_TEST(c.of_type("SparkRates").empty());
    BOOST_TEST(c.extra("Sparks", "Totals (as +RTS -s)").empty());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(runtime_events_profile)

BOOST_AUTO_TEST_CASE(tasks_capabilities_and_capsets_are_markers) {
    Converted c = convert_file(fixture("concurrency.eventlog"));
    const auto& by_tag = c.report.run.events_by_tag;
    std::size_t created = 0, deleted = 0;
    for (const Marker& m : c.of_type("TaskEvent")) {
        BOOST_TEST(m.thread.rfind("Capability ", 0) == 0u, m.name << " on " << m.thread);
        created += m.name == "Task created";
        deleted += m.name == "Task deleted";
        if (m.name == "Task created") BOOST_TEST(m.num("osThread") > 0);
    }
    BOOST_TEST(created == by_tag[TaskCreate::tag]);
    BOOST_TEST(deleted == by_tag[TaskDelete::tag]);
    auto caps = c.of_type("CapabilityEvent", "Capability 1");
    BOOST_TEST(find(caps, "Capability created"));
    BOOST_TEST(find(caps, "Capability deleted"));
    std::string process = c.doc["threads"][0]["name"].GetString();
    std::size_t capset_events = by_tag[CapsetCreate::tag] + by_tag[CapsetDelete::tag] + by_tag[CapsetAssignCap::tag] +
                                by_tag[CapsetRemoveCap::tag];
    BOOST_TEST(c.of_type("CapsetEvent", process).size() == capset_events);
}

BOOST_AUTO_TEST_CASE(capability_disable_and_enable_make_a_span) {
    EventlogBuilder b = scheduler_types();
    b.declare<CapCreate>().declare<CapDisable>().declare<CapEnable>();
    b.begin_block(0, 0);
    b.event(10, CreateThread{1}).event(20, RunThread{1}).event(300, StopThread{1, kFinished, 0});
    b.end_block();
    b.begin_block(1, 1);
    b.event(5, CreateThread{2}).event(6, RunThread{2}).event(7, StopThread{2, kFinished, 0});
    b.end_block();
    b.begin_block(0, kGlobalCap);
    b.event(1, CapCreate{0}).event(2, CapCreate{1}).event(100, CapDisable{1}).event(200, CapEnable{1});
    b.end_block();
    Converted c = convert_bytes(b.finish());
    auto spans = c.of_type("CapabilityDisabled", "Capability 1");
    BOOST_REQUIRE(spans.size() == 1u);
    BOOST_TEST(spans[0].start == 100e-6);
    BOOST_TEST(*spans[0].end == 200e-6);
    BOOST_TEST(find(c.of_type("CapabilityEvent", "Capability 1"), "Capability disabled"));
}

BOOST_AUTO_TEST_CASE(log_messages_and_eden_events_are_shown, UPSTREAM_DATA) {
    auto path = shared_log("parallelTest.eventlog");
    if (!path) return;
    Converted c = convert_file(*path);
    const auto& by_tag = c.report.run.events_by_tag;
    BOOST_TEST(c.of_type("RtsLog").size() == by_tag[LogMsg::tag]);
    std::map<std::string, std::size_t> generic;
    for (const Marker& m : c.of_type("RtsEvent")) ++generic[m.name];
    BOOST_TEST(generic["SEND_MESSAGE"] == by_tag[SendMessage::tag]);
    BOOST_TEST(generic["CREATE_MACHINE"] == by_tag[CreateMachine::tag]);
    BOOST_TEST(generic["STARTUP"] == by_tag[Startup::tag]);
    BOOST_TEST(generic["VERSION"] == 1u);
    for (const Marker& m : c.of_type("RtsEvent"))
        if (m.name == "STARTUP") BOOST_TEST(m.str("fields").rfind("n_caps=", 0) == 0u);
}

BOOST_AUTO_TEST_CASE(perf_events_go_to_the_capability_of_their_os_thread) {
    EventlogBuilder b = scheduler_types();
    b.declare<TaskCreate>().declare<PerfName>().declare<PerfCounter>().declare<TaskDelete>();
    b.begin_block(0, 0);
    b.event(10, CreateThread{1}).event(20, RunThread{1}).event(300, StopThread{1, kFinished, 0});
    b.end_block();
    b.begin_block(1, 1);
    b.event(11, CreateThread{2}).event(21, RunThread{2}).event(301, StopThread{2, kFinished, 0});
    b.end_block();
    b.begin_block(0, kGlobalCap);
    b.event(5, TaskCreate{0xA0, 1, 4242}).event(6, PerfName{3, Text{"cycles"}});
    b.event(50, PerfCounter{3, 4242, 999}).event(60, PerfCounter{3, 77, 1}).event(400, TaskDelete{0xA0});
    b.end_block();
    Converted c = convert_bytes(b.finish());
    auto on_cap1 = c.of_type("RtsEvent", "Capability 1");
    std::size_t perf_on_cap1 = 0;
    for (const Marker& m : on_cap1)
        if (m.name == "PERF_COUNTER") {
            ++perf_on_cap1;
            BOOST_TEST(m.str("fields") == "perf \"cycles\", perf_num=3, tid=4242, period=999");
        }
    BOOST_TEST(perf_on_cap1 == 1u);
    std::string process = c.doc["threads"][0]["name"].GetString();
    BOOST_TEST(find(c.of_type("RtsEvent", process), "PERF_COUNTER"));  // an OS thread no task runs on
    auto tasks = c.of_type("TaskEvent", "Capability 1");
    const Marker* deleted = find(tasks, "Task deleted");
    BOOST_REQUIRE(deleted);  // on the capability the task was last on
    BOOST_TEST(deleted->num("osThread") == 4242);
    BOOST_TEST(deleted->str("task") == "0xa0");
}

BOOST_AUTO_TEST_CASE(ticky_counters_become_tracks_of_the_most_entered, UPSTREAM_DATA) {
    auto path = shared_log("ticky-new.eventlog");
    if (!path) return;
    Converted c = convert_file(*path);
    std::map<std::string, const rapidjson::Value*> counters;
    for (const auto& k : c.doc["counters"].GetArray())
        if (std::string(k["category"].GetString()) == "Ticky") counters[k["name"].GetString()] = &k;
    BOOST_REQUIRE(counters.size() == 2u);
    const rapidjson::Value* fib = counters["Ticky: fib1{v sZs} (Main) (fun) in r1"];
    BOOST_REQUIRE(fib);
    double total = 0;
    for (const auto& v : (*fib)["samples"]["count"].GetArray()) total += v.GetDouble();
    BOOST_TEST(total == 77243.0 + 656885 + 676207 + 676199);
    std::string process = c.doc["threads"][0]["name"].GetString();
    BOOST_TEST(c.of_type("TickySample", process).size() == 4u);
    BOOST_TEST(c.extra("Ticky-ticky counters (most entered)", "Counters") == "2");
}

BOOST_AUTO_TEST_CASE(ticky_logs_without_rounds_or_samples_convert, UPSTREAM_DATA) {
    for (const char* name : {"ticky-ticky.eventlog", "ticky-json.eventlog", "ticky-begin-sample.eventlog"}) {
        auto path = shared_log(name);
        if (!path) continue;
        Converted c = convert_file(*path);
        BOOST_TEST(!c.extra("Ticky-ticky counters (most entered)", "Counters").empty(), name);
    }
}

BOOST_AUTO_TEST_SUITE_END()

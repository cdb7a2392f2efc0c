// Static marker types (static_marker.hpp): the schema a struct declares, the compile-time check
// of its values against its fields, registration with the first marker, absent values.
#include <boost/test/unit_test.hpp>

#include <array>
#include <optional>
#include <tuple>

#include "fxprof/static_marker.hpp"
#include "check/profile_check.hpp"
#include "fxprof_test_util.hpp"

using namespace el2fx::fxprof;
using namespace el2fx::fxprof::testing;
using el2fx::check::validate_profile;

namespace {

constexpr std::array kPauseGraphs{StaticGraph{"bytes", MarkerGraphType::bar, GraphColor::orange}};

struct PauseMarker {
    static constexpr MarkerTypeInfo kType{.name = "Pause",
                                          .display = kTimelineDisplay,
                                          .tooltip_label = "Pause {marker.data.bytes}",
                                          .description = "A test marker.",
                                          .graphs = kPauseGraphs};
    static constexpr std::array kFields{StaticField{"why", "Why", FieldFormat::string},
                                        StaticField{"bytes", "Bytes", FieldFormat::bytes},
                                        StaticField{"took", "Took", FieldFormat::duration},
                                        StaticField{"note", "Note", FieldFormat::unique_string, true}};
    StringHandle why;
    std::uint64_t bytes;
    std::optional<Duration> took{};
    std::optional<StringHandle> note{};
    auto field_values() const { return std::tuple{why, bytes, took, note}; }
};

struct BareMarker {
    static constexpr MarkerTypeInfo kType{.name = "Bare", .display = kChartDisplay};
    static constexpr std::array<StaticField, 0> kFields{};
    auto field_values() const { return std::tuple<>{}; }
};

// Mistakes the compiler must catch (values_match_fields is what check_static_marker asserts).
struct TooFewValues {
    static constexpr MarkerTypeInfo kType{.name = "TooFew", .display = kChartDisplay};
    static constexpr std::array kFields{StaticField{"a", "A", FieldFormat::integer},
                                        StaticField{"b", "B", FieldFormat::integer}};
    auto field_values() const { return std::tuple{1}; }
};
struct NumberForAString {
    static constexpr MarkerTypeInfo kType{.name = "Wrong", .display = kChartDisplay};
    static constexpr std::array kFields{StaticField{"a", "A", FieldFormat::string}};
    auto field_values() const { return std::tuple{1}; }
};
struct IntegerForADuration {
    static constexpr MarkerTypeInfo kType{.name = "Wrong2", .display = kChartDisplay};
    static constexpr std::array kFields{StaticField{"a", "A", FieldFormat::milliseconds}};
    auto field_values() const { return std::tuple{std::optional<std::int64_t>(1)}; }
};
struct NotAMarker {
    int x;
};

static_assert(StaticMarker<PauseMarker>);
static_assert(StaticMarker<BareMarker>);
static_assert(!StaticMarker<NotAMarker>);
static_assert(values_match_fields<PauseMarker>());
static_assert(values_match_fields<BareMarker>());
static_assert(!values_match_fields<TooFewValues>());
static_assert(!values_match_fields<NumberForAString>());
static_assert(!values_match_fields<IntegerForADuration>());

struct OneThread {
    Profile p{"t"};
    ProcessHandle proc = p.add_process("proc", "7", ms(0));
    ThreadHandle thread = p.add_thread(proc, "main", 7, ms(0), true);
    CategoryHandle cat = p.handle_for_category("Other", CategoryColor::grey);
};

}  // namespace

BOOST_AUTO_TEST_SUITE(static_markers)

BOOST_AUTO_TEST_CASE(schema_declared_by_the_struct) {
    const MarkerSchema s = schema_of<PauseMarker>();
    BOOST_TEST(s.name == "Pause");
    BOOST_TEST(s.display.size() == 3u);
    BOOST_TEST((s.display[2] == DisplayLocation::timeline_overview));
    BOOST_TEST(s.fields.size() == 4u);
    BOOST_TEST(s.fields[1].key == "bytes");
    BOOST_TEST((s.fields[1].format == FieldFormat::bytes));
    BOOST_TEST(s.fields[3].hidden);
    BOOST_TEST(s.tooltip_label == "Pause {marker.data.bytes}");
    BOOST_TEST(s.graphs.size() == 1u);
    BOOST_TEST((s.graphs[0].color == GraphColor::orange));
    BOOST_CHECK_NO_THROW(check_marker_schema(s));
    BOOST_TEST(schema_of<BareMarker>().fields.empty());
}

BOOST_AUTO_TEST_CASE(registered_with_the_first_marker_and_once) {
    OneThread t;
    BOOST_TEST(t.p.marker_schemas().empty());
    const StringHandle name = t.p.handle_for_string("GC");
    const StringHandle why = t.p.handle_for_string("heap full");
    t.p.add_marker(t.thread, MarkerTiming::instant(ms(1)), name, t.cat, BareMarker{});
    t.p.add_marker(t.thread, MarkerTiming::interval(ms(1), ms(2)), name, t.cat,
                   PauseMarker{.why = why, .bytes = 10, .took = Duration::from_nanos(kMs), .note = why});
    t.p.add_marker(t.thread, MarkerTiming::instant(ms(3)), name, t.cat, PauseMarker{.why = why, .bytes = 20});
    BOOST_TEST(t.p.marker_schemas().size() == 2u);
    BOOST_TEST(t.p.marker_schemas()[0].name == "Bare");
    BOOST_TEST(t.p.marker_schemas()[1].name == "Pause");
    BOOST_TEST((t.p.schema_handle<PauseMarker>() == MarkerSchemaHandle(1)));
}

BOOST_AUTO_TEST_CASE(absent_values_leave_their_keys_out) {
    OneThread t;
    const StringHandle name = t.p.handle_for_string("GC");
    const StringHandle why = t.p.handle_for_string("heap full");
    t.p.add_marker(t.thread, MarkerTiming::interval(ms(1), ms(2)), name, t.cat,
                   PauseMarker{.why = why, .bytes = 10, .took = Duration::from_nanos(2 * kMs), .note = why});
    t.p.add_marker(t.thread, MarkerTiming::instant(ms(3)), name, t.cat, PauseMarker{.why = why, .bytes = 20});
    const std::string text = profile_to_json(t.p);
    const auto problems = validate_profile(text);
    BOOST_TEST(problems.empty(), "validator: " << (problems.empty() ? "" : problems.front()));
    const rapidjson::Document d = parse_json(text);
    const rapidjson::Value& data = at(at(at(at(d, "threads"), 0), "markers"), "data");
    BOOST_TEST(at(data[0], "took").GetDouble() == 2.0);  // milliseconds
    BOOST_TEST(at(data[0], "note").GetUint() == why.index());
    BOOST_TEST(at(data[1], "bytes").GetUint() == 20u);
    BOOST_TEST(!data[1].HasMember("took"));
    BOOST_TEST(!data[1].HasMember("note"));
}

BOOST_AUTO_TEST_CASE(a_dynamic_schema_of_the_same_name_is_refused) {
    OneThread t;
    MarkerSchema other = schema_of<PauseMarker>();
    other.fields.pop_back();
    t.p.register_marker_schema(other);
    const StringHandle name = t.p.handle_for_string("GC");
    BOOST_CHECK_THROW(
        t.p.add_marker(t.thread, MarkerTiming::instant(ms(1)), name, t.cat, PauseMarker{.why = name, .bytes = 1}),
        el2fx::Error);
}

BOOST_AUTO_TEST_SUITE_END()

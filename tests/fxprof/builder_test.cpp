// The profile builder: interning, stack encoding, marker schemas and fields, samples, counters.
// Tests look at the parsed JSON the writer produces, not at bytes.
#include <boost/test/unit_test.hpp>

#include "check/profile_check.hpp"
#include "fxprof_test_util.hpp"
#include "fxprof/flat_index.hpp"
#include "fxprof/frame_table.hpp"
#include "fxprof/func_table.hpp"
#include "util/error.hpp"

using namespace el2fx::fxprof;
using namespace el2fx::fxprof::testing;
using el2fx::Error;
using el2fx::check::validate_profile;

namespace {

struct OneThread {
    Profile p{"t"};
    ProcessHandle proc = p.add_process("proc", "7", ms(0));
    ThreadHandle thread = p.add_thread(proc, "main", 7, ms(0), true);

    FrameHandle frame(const char* name, std::optional<SubcategoryHandle> cat = std::nullopt) {
        return p.handle_for_frame({.func = p.handle_for_func({.name = p.handle_for_string(name)}), .category = cat});
    }
    rapidjson::Document json() const {
        const std::string text = profile_to_json(p);
        const auto problems = validate_profile(text);
        BOOST_TEST(problems.empty(), "validator: " << (problems.empty() ? "" : problems.front()));
        return parse_json(text);
    }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(interning)

BOOST_AUTO_TEST_CASE(same_string_same_handle) {
    Profile p("t");
    const StringHandle a = p.handle_for_string("alpha");
    const StringHandle b = p.handle_for_string("beta");
    BOOST_TEST((a != b));
    BOOST_TEST((p.handle_for_string("alpha") == a));
    BOOST_TEST((p.handle_for_string(std::string("be") + "ta") == b));
    BOOST_TEST(p.strings().size() == 2u);
    BOOST_TEST(p.strings().get(a) == "alpha");
}

BOOST_AUTO_TEST_CASE(many_strings_keep_their_handles) {
    // The interning map's keys must survive table growth.
    Profile p("t");
    std::vector<StringHandle> handles;
    for (int i = 0; i < 5000; ++i) handles.push_back(p.handle_for_string("s" + std::to_string(i)));
    for (int i = 0; i < 5000; ++i) {
        BOOST_TEST((p.handle_for_string("s" + std::to_string(i)) == handles[std::size_t(i)]));
        BOOST_TEST(p.strings().get(handles[std::size_t(i)]) == "s" + std::to_string(i));
    }
}

BOOST_AUTO_TEST_CASE(strings_of_any_length_and_bytes_are_kept) {
    Profile p("t");
    const std::string long_text(100'000, 'x');  // longer than a storage block
    const std::string with_nul("a\0b", 3);
    const StringHandle empty = p.handle_for_string("");
    const StringHandle big = p.handle_for_string(long_text);
    const StringHandle nul = p.handle_for_string(with_nul);
    for (int i = 0; i < 20'000; ++i) p.handle_for_string("filler " + std::to_string(i));  // more blocks
    BOOST_TEST((p.handle_for_string("") == empty));
    BOOST_TEST((p.handle_for_string(long_text) == big));
    BOOST_TEST((p.handle_for_string(with_nul) == nul));
    BOOST_TEST(p.strings().size() == 20'003u);
    BOOST_TEST((p.handle_for_string("a") != nul));
    BOOST_TEST(p.strings().get(empty).empty());
    BOOST_TEST(p.strings().get(big) == long_text);
    BOOST_TEST(p.strings().get(nul) == with_nul);
}

BOOST_AUTO_TEST_CASE(string_lengths_at_the_edges_of_their_encoding) {
    // A stored string is its length as a varint (one byte below 128, two below 16384) then its
    // bytes; past a quarter block (16 KiB) a string gets a block of its own.
    Profile p("t");
    const std::size_t lengths[] = {1, 127, 128, 129, 16'380, 16'381, 16'382, 16'383, 16'384, 16'385, 65'536, 2'097'152};
    std::vector<StringHandle> handles;
    for (std::size_t n : lengths) handles.push_back(p.handle_for_string(std::string(n, char('a' + n % 26))));
    for (std::size_t i = 0; i < std::size(lengths); ++i) {
        const std::string text(lengths[i], char('a' + lengths[i] % 26));
        BOOST_TEST(p.strings().get(handles[i]) == text);
        BOOST_TEST((p.handle_for_string(text) == handles[i]));
    }
    const StringHandle distinct = p.add_distinct_string(std::string(300, 'z'));
    BOOST_TEST(p.strings().get(distinct) == std::string(300, 'z'));
    BOOST_TEST(p.strings().size() == std::size(lengths) + 1);
}

BOOST_AUTO_TEST_CASE(flat_index_tells_colliding_keys_apart) {
    // Every key hashes alike: only equals() can tell them apart, across growth.
    std::vector<int> rows;
    FlatIndex index;
    auto intern = [&](int key) {
        auto [row, added] =
            index.intern(42, static_cast<std::uint32_t>(rows.size()), [&](std::uint32_t r) { return rows[r] == key; });
        if (added) rows.push_back(key);
        return row;
    };
    for (int k = 0; k < 300; ++k) BOOST_TEST(intern(k) == static_cast<std::uint32_t>(k));
    for (int k = 299; k >= 0; --k) BOOST_TEST(intern(k) == static_cast<std::uint32_t>(k));
    BOOST_TEST(index.size() == 300u);
    BOOST_TEST(rows.size() == 300u);
}

BOOST_AUTO_TEST_CASE(compact_optional_handle) {
    CompactOptional<StackHandle> none, zero, big;
    BOOST_TEST(!none);
    zero = StackHandle(0);  // index 0 is a value, not "none"
    BOOST_TEST(static_cast<bool>(zero));
    BOOST_TEST((*zero).index() == 0u);
    big = StackHandle(INT32_MAX - 1);
    BOOST_TEST((*big).index() == std::uint32_t{INT32_MAX - 1});
    static_assert(sizeof(CompactOptional<StackHandle>) == 4);
}

BOOST_AUTO_TEST_CASE(a_profile_moves_but_does_not_copy) {
    static_assert(!std::is_copy_constructible_v<Profile>);
    static_assert(std::is_nothrow_move_constructible_v<StringTable> || std::is_move_constructible_v<StringTable>);
    Profile a = make_small_profile();
    const std::string before = profile_to_json(a);
    const StringHandle main_name = a.handle_for_string("main");
    Profile b = std::move(a);
    BOOST_TEST((b.handle_for_string("main") == main_name));  // the index still finds it
    BOOST_TEST(profile_to_json(b) == before);
}

BOOST_AUTO_TEST_CASE(categories_and_subcategories_are_interned) {
    Profile p("t");
    BOOST_TEST(p.categories().categories().size() == 1u);  // "Other", grey, the default
    const CategoryHandle gc = p.handle_for_category("GC", CategoryColor::orange);
    BOOST_TEST((p.handle_for_category("GC", CategoryColor::red) == gc));
    const SubcategoryHandle minor = p.handle_for_subcategory(gc, "Minor");
    BOOST_TEST(minor.index() == 1u);
    BOOST_TEST((p.handle_for_subcategory(gc, "Minor") == minor));
    BOOST_TEST(p.handle_for_subcategory(gc, "Major").index() == 2u);
    BOOST_TEST(p.handle_for_subcategory(gc, "Other").index() == 0u);
}

BOOST_AUTO_TEST_CASE(same_func_frame_stack_same_handle) {
    OneThread t;
    Profile& p = t.p;
    const StringHandle name = p.handle_for_string("f");
    const FuncHandle f1 = p.handle_for_func({.name = name, .line = 3});
    BOOST_TEST((p.handle_for_func({.name = name, .line = 3}) == f1));
    BOOST_TEST((p.handle_for_func({.name = name, .line = 4}) != f1));
    const FrameHandle fr = p.handle_for_frame({.func = f1, .line = 10});
    BOOST_TEST((p.handle_for_frame({.func = f1, .line = 10}) == fr));
    BOOST_TEST((p.handle_for_frame({.func = f1, .line = 11}) != fr));
    const CategoryHandle c = p.handle_for_category("C", CategoryColor::blue);
    BOOST_TEST((p.handle_for_frame({.func = f1, .category = c, .line = 10}) != fr));

    const StackHandle root = p.handle_for_stack(std::nullopt, fr);
    BOOST_TEST((p.handle_for_stack(std::nullopt, fr) == root));
    const StackHandle child = p.handle_for_stack(root, fr);  // recursion: same frame below itself
    BOOST_TEST((child != root));
    BOOST_TEST((p.handle_for_stack(root, fr) == child));
    const std::vector<FrameHandle> frames = {fr, fr};
    BOOST_TEST((*p.handle_for_stack_frames(frames) == child));
    BOOST_TEST(!p.handle_for_stack_frames({}).has_value());
    BOOST_TEST(p.stacks().size() == 2u);
}

// Rows are stored packed (a bare name in 8 bytes, a fuller row aside): each comes back as given.
// A bare row is stored as its name (or func) alone, with the top bit marking rows kept aside:
// names and funcs at and above that bit must come back too.
BOOST_AUTO_TEST_CASE(bare_rows_at_the_limits_of_their_encoding) {
    FuncTable funcs;
    const std::uint32_t names[] = {0, 0x7fff'ffffu, 0x8000'0000u, 0x8000'0001u, UINT32_MAX - 1, UINT32_MAX};
    std::vector<FuncHandle> fh;
    for (std::uint32_t n : names) fh.push_back(funcs.handle_for({.name = StringHandle(n)}));
    fh.push_back(funcs.add_distinct({.name = StringHandle(0x8000'0000u)}));  // a second, not interned
    fh.push_back(funcs.handle_for({.name = StringHandle(5), .line = 1}));
    BOOST_TEST(funcs.size() == std::size(names) + 2);
    for (std::size_t i = 0; i < std::size(names); ++i) {
        BOOST_TEST((funcs.rows()[fh[i].index()] == FuncInfo{.name = StringHandle(names[i])}), "func " << i);
        BOOST_TEST((funcs.handle_for({.name = StringHandle(names[i])}) == fh[i]), "func " << i << " interned once");
    }
    BOOST_TEST((funcs.rows()[fh[6].index()] == FuncInfo{.name = StringHandle(0x8000'0000u)}));
    BOOST_TEST((funcs.rows()[fh[7].index()] == FuncInfo{.name = StringHandle(5), .line = 1}));

    FrameTable frames;
    const std::uint32_t funcs_at[] = {0, 0x7fff'ffffu, 0x8000'0000u, UINT32_MAX};
    std::vector<FrameHandle> rh;
    for (std::uint32_t f : funcs_at) rh.push_back(frames.handle_for({.func = FuncHandle(f)}));
    for (std::size_t i = 0; i < std::size(funcs_at); ++i) {
        BOOST_TEST((frames.rows()[rh[i].index()] == FrameInfo{.func = FuncHandle(funcs_at[i])}), "frame " << i);
        BOOST_TEST((frames.handle_for({.func = FuncHandle(funcs_at[i])}) == rh[i]), "frame " << i << " interned once");
    }
    BOOST_TEST(frames.size() == std::size(funcs_at));
}

BOOST_AUTO_TEST_CASE(bare_and_full_rows_come_back_as_given) {
    OneThread t;
    Profile& p = t.p;
    const StringHandle a = p.handle_for_string("a"), b = p.handle_for_string("b");
    const ResourceHandle r = p.handle_for_resource(b, ResourceType::library);
    const CategoryHandle c = p.handle_for_category("C", CategoryColor::blue);
    const std::vector<FuncInfo> funcs = {
        {.name = a},
        {.name = a, .resource = r},
        {.name = b, .line = 0},
        {.name = b, .line = UINT32_MAX, .column = 7},
        {.name = a, .is_js = true},
        {.name = b, .relevant_for_js = true},
        {.name = b},
    };
    std::vector<FuncHandle> handles;
    for (const FuncInfo& f : funcs) handles.push_back(p.handle_for_func(f));
    for (std::size_t i = 0; i < funcs.size(); ++i) {
        BOOST_TEST((p.funcs().rows()[handles[i].index()] == funcs[i]), "func " << i);
        BOOST_TEST((p.handle_for_func(funcs[i]) == handles[i]), "func " << i << " interned once");
    }
    BOOST_TEST(p.funcs().size() == funcs.size());
    const std::vector<FrameInfo> frames = {
        {.func = handles[0]},
        {.func = handles[0], .category = c},
        {.func = handles[1], .category = SubcategoryHandle(c, 0), .line = 3},
        {.func = handles[1], .column = 0},
        {.func = handles[2]},
    };
    std::vector<FrameHandle> frame_handles;
    for (const FrameInfo& f : frames) frame_handles.push_back(p.handle_for_frame(f));
    for (std::size_t i = 0; i < frames.size(); ++i) {
        BOOST_TEST((p.frames().rows()[frame_handles[i].index()] == frames[i]), "frame " << i);
        BOOST_TEST((p.handle_for_frame(frames[i]) == frame_handles[i]), "frame " << i << " interned once");
    }
    std::size_t n = 0;
    for (const FrameInfo& f : p.frames().rows()) BOOST_TEST((f == frames[n++]));
    BOOST_TEST(n == frames.size());
    t.json();  // and it validates
}

BOOST_AUTO_TEST_CASE(distinct_rows_are_added_as_they_are_not_interned) {
    OneThread t;
    Profile& p = t.p;
    const StringHandle name = p.handle_for_string("12 worker");
    const FuncHandle interned = p.handle_for_func({.name = name});
    const FuncHandle f = p.add_distinct_func({.name = name});
    BOOST_TEST((f != interned));                                  // the caller said it was new: it is, even if equal
    BOOST_TEST((p.handle_for_func({.name = name}) == interned));  // the index knows only its own
    const FrameHandle fr = p.add_distinct_frame({.func = f});
    BOOST_TEST((p.add_distinct_frame({.func = f}) != fr));
    BOOST_TEST(p.frames().size() == 2u);
    const StackHandle root = p.add_distinct_stack(std::nullopt, fr);
    const StackHandle child = p.add_distinct_stack(root, fr);
    BOOST_TEST((p.stacks().prefix(child) == std::optional<StackHandle>(root)));
    BOOST_TEST((p.stacks().frame(child) == fr));
    // Interning below a distinct stack works as below any other.
    const StackHandle below = p.handle_for_stack(child, fr);
    BOOST_TEST((p.handle_for_stack(child, fr) == below));
    BOOST_TEST(p.stacks().size() == 3u);
    p.add_sample(t.thread, ms(1), below, std::nullopt);
    t.json();  // and it validates
}

BOOST_AUTO_TEST_CASE(handles_from_elsewhere_are_refused) {
    Profile p("t");
    BOOST_CHECK_THROW(p.handle_for_func({.name = StringHandle(99)}), Error);
    BOOST_CHECK_THROW(p.handle_for_frame({.func = FuncHandle(0)}), Error);
    BOOST_CHECK_THROW(p.handle_for_stack(std::nullopt, FrameHandle(0)), Error);
    BOOST_CHECK_THROW(p.add_distinct_func({.name = StringHandle(99)}), Error);
    BOOST_CHECK_THROW(p.add_distinct_frame({.func = FuncHandle(0)}), Error);
    BOOST_CHECK_THROW(p.add_distinct_stack(std::nullopt, FrameHandle(0)), Error);
    BOOST_CHECK_THROW(p.add_sample(ThreadHandle(0), ms(0), std::nullopt, std::nullopt), Error);
    BOOST_CHECK_THROW(p.handle_for_subcategory(CategoryHandle(5), "x"), Error);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(stack_encoding)

BOOST_AUTO_TEST_CASE(prefix_offset_is_distance_to_the_parent) {
    OneThread t;
    Profile& p = t.p;
    const FrameHandle a = t.frame("a"), b = t.frame("b"), c = t.frame("c");
    const StackHandle sa = p.handle_for_stack(std::nullopt, a);  // 0: root
    const StackHandle sb = p.handle_for_stack(std::nullopt, b);  // 1: root
    const StackHandle sab = p.handle_for_stack(sa, b);           // 2: parent 0
    const StackHandle sbc = p.handle_for_stack(sb, c);           // 3: parent 1
    const StackHandle sabc = p.handle_for_stack(sab, c);         // 4: parent 2
    p.add_sample(t.thread, ms(0), sabc, std::nullopt);
    p.add_sample(t.thread, ms(1), sbc, std::nullopt);

    const auto doc = t.json();
    const auto& st = at(at(doc, "shared"), "stackTable");
    BOOST_TEST(numbers(at(st, "prefixOffset")) == (std::vector<double>{0, 0, 2, 2, 2}),
               boost::test_tools::per_element());
    BOOST_TEST(numbers(at(st, "frame")) == (std::vector<double>{0, 1, 1, 2, 2}), boost::test_tools::per_element());
    BOOST_TEST(at(st, "length").GetInt() == 5);
    BOOST_TEST(!st.HasMember("prefix"));
    const auto& samples = at(at(at(doc, "threads"), 0), "samples");
    BOOST_TEST(numbers(at(samples, "stack")) == (std::vector<double>{4, 3}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(frame_and_func_columns) {
    OneThread t;
    Profile& p = t.p;
    const CategoryHandle c = p.handle_for_category("C", CategoryColor::blue);
    const SubcategoryHandle sub = p.handle_for_subcategory(c, "S");
    const ResourceHandle r = p.handle_for_resource(p.handle_for_string("pkg"), ResourceType::library);
    const SourceHandle src = p.handle_for_source(p.handle_for_string("A.hs"));
    const FuncHandle f =
        p.handle_for_func({.name = p.handle_for_string("f"), .resource = r, .source = src, .line = 7, .column = 2});
    p.handle_for_frame({.func = f, .category = sub, .line = 9});
    p.handle_for_frame({.func = p.handle_for_func({.name = p.handle_for_string("g")})});

    const auto doc = t.json();
    const auto& shared = at(doc, "shared");
    const auto& ft = at(shared, "frameTable");
    BOOST_TEST(to_text(at(ft, "category")) == "[1,null]");
    BOOST_TEST(to_text(at(ft, "subcategory")) == "[1,null]");
    BOOST_TEST(to_text(at(ft, "line")) == "[9,null]");
    BOOST_TEST(to_text(at(ft, "lib")) == "[-1,-1]");
    BOOST_TEST(to_text(at(ft, "address")) == "[-1,-1]");
    BOOST_TEST(to_text(at(ft, "nativeSymbol")) == "[null,null]");
    BOOST_TEST(to_text(at(ft, "originalLocation")) == "[null,null]");
    BOOST_TEST(to_text(at(ft, "innerWindowID")) == "[0,0]");
    BOOST_TEST(to_text(at(ft, "inlineDepth")) == "[0,0]");
    const auto& fn = at(shared, "funcTable");
    BOOST_TEST(to_text(at(fn, "resource")) == "[0,-1]");
    BOOST_TEST(to_text(at(fn, "source")) == "[0,null]");
    BOOST_TEST(to_text(at(fn, "lineNumber")) == "[7,null]");
    BOOST_TEST(to_text(at(fn, "columnNumber")) == "[2,null]");
    BOOST_TEST(to_text(at(fn, "relevantForJS")) == "[false,false]");
    BOOST_TEST(to_text(at(fn, "isJS")) == "[false,false]");
    const auto& strings = at(shared, "stringArray");
    BOOST_TEST(std::string(strings[at(at(shared, "sources"), "filename")[0].GetUint()].GetString()) == "A.hs");
    BOOST_TEST(std::string(strings[at(at(shared, "resourceTable"), "name")[0].GetUint()].GetString()) == "pkg");
    BOOST_TEST(at(at(shared, "resourceTable"), "type")[0].GetInt() == 1);
    const auto& cats = at(at(doc, "meta"), "categories");
    BOOST_TEST(to_text(cats) == R"([{"name":"Other","color":"grey","subcategories":["Other"]},)"
                                R"({"name":"C","color":"blue","subcategories":["Other","S"]}])");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(markers)

BOOST_AUTO_TEST_CASE(schema_is_declared_once_and_checked) {
    Profile p("t");
    p.register_marker_schema({.name = "A", .display = {DisplayLocation::marker_chart}});
    BOOST_CHECK_THROW(p.register_marker_schema({.name = "A"}), Error);
    BOOST_CHECK_THROW(p.register_marker_schema({.name = ""}), Error);
    BOOST_CHECK_THROW(p.register_marker_schema({.name = "B", .fields = {{"type", "", FieldFormat::string}}}), Error);
    BOOST_CHECK_THROW(p.register_marker_schema(
                          {.name = "C", .fields = {{"k", "", FieldFormat::integer}, {"k", "", FieldFormat::bytes}}}),
                      Error);
    BOOST_CHECK_THROW(
        p.register_marker_schema(
            {.name = "D", .fields = {{"s", "", FieldFormat::string}}, .graphs = {{"s", MarkerGraphType::bar, {}}}}),
        Error);
}

BOOST_AUTO_TEST_CASE(field_values_must_match_the_schema) {
    OneThread t;
    Profile& p = t.p;
    const auto s = p.register_marker_schema(
        {.name = "S", .fields = {{"n", "", FieldFormat::integer}, {"d", "", FieldFormat::duration}}});
    const StringHandle name = p.handle_for_string("m");
    const CategoryHandle cat = Profile::default_category();
    const auto timing = MarkerTiming::instant(ms(1));
    BOOST_CHECK_NO_THROW(p.add_marker(t.thread, timing, name, cat, s, {1, Duration::from_millis(2)}));
    BOOST_CHECK_THROW(p.add_marker(t.thread, timing, name, cat, s, {1}), Error);  // too few
    BOOST_CHECK_THROW(p.add_marker(t.thread, timing, name, cat, s, {1, Duration::from_millis(2), 3}),
                      Error);                                                          // too many
    BOOST_CHECK_THROW(p.add_marker(t.thread, timing, name, cat, s, {1, 2.0}), Error);  // ms unit?
    BOOST_CHECK_THROW(p.add_marker(t.thread, timing, name, cat, s, {name, Duration{}}), Error);
    BOOST_CHECK_THROW(
        p.add_marker(t.thread, timing, name, cat, s, {std::numeric_limits<double>::quiet_NaN(), Duration{}}), Error);
    BOOST_CHECK_THROW(p.add_marker(t.thread, MarkerTiming::interval(ms(2), ms(1)), name, cat), Error);
    BOOST_TEST(p.threads()[0].markers.size() == 1u);
}

BOOST_AUTO_TEST_CASE(fields_are_written_in_their_format_units) {
    OneThread t;
    Profile& p = t.p;
    const auto s = p.register_marker_schema({.name = "All",
                                             .display = {DisplayLocation::marker_table},
                                             .fields = {{"str", "Str", FieldFormat::string},
                                                        {"uniq", "", FieldFormat::unique_string},
                                                        {"dur", "", FieldFormat::duration},
                                                        {"sec", "", FieldFormat::seconds},
                                                        {"us", "", FieldFormat::microseconds},
                                                        {"ns", "", FieldFormat::nanoseconds},
                                                        {"t", "", FieldFormat::time},
                                                        {"bytes", "", FieldFormat::bytes},
                                                        {"pct", "", FieldFormat::percentage},
                                                        {"hex", "", FieldFormat::hexadecimal, true}}});
    const StringHandle text = p.handle_for_string("some text");
    p.add_marker(t.thread, MarkerTiming::interval(ms(1), ms(3)), p.handle_for_string("m"), Profile::default_category(),
                 s,
                 {text, text, Duration::from_nanos(1500000), Duration::from_millis(2500), Duration::from_nanos(2500),
                  Duration::from_nanos(42), Timestamp::from_nanos(1000001), std::int64_t{1} << 40, 0.5, 255u});
    p.add_marker(t.thread, MarkerTiming::instant(ms(2)), p.handle_for_string("bare"), Profile::default_category());
    p.add_marker(t.thread, MarkerTiming::interval_start(ms(4)), p.handle_for_string("pair"),
                 Profile::default_category());
    p.add_marker(t.thread, MarkerTiming::interval_end(ms(5)), p.handle_for_string("pair"), Profile::default_category());

    const auto doc = t.json();
    const auto& m = at(at(at(doc, "threads"), 0), "markers");
    const std::string uniq = std::to_string(text.index());
    BOOST_TEST(to_text(at(m, "data")[0]) ==
               R"({"type":"All","str":"some text","uniq":)" + uniq +
                   R"(,"dur":1.5,"sec":2.5,"us":2.5,"ns":42,"t":1.000001,"bytes":1099511627776,)"
                   R"("pct":0.5,"hex":255})");
    BOOST_TEST(to_text(at(m, "data")).find("null") != std::string::npos);
    BOOST_TEST(to_text(at(m, "phase")) == "[1,0,2,3]");
    BOOST_TEST(to_text(at(m, "startTime")) == "[1,2,4,null]");
    BOOST_TEST(to_text(at(m, "endTime")) == "[3,null,null,5]");
    BOOST_TEST(to_text(at(m, "category")) == "[0,0,0,0]");
    BOOST_TEST(at(m, "length").GetInt() == 4);

    const auto& schema = at(at(at(doc, "meta"), "markerSchema"), 0);
    BOOST_TEST(to_text(at(schema, "display")) == R"(["marker-table"])");
    BOOST_TEST(to_text(at(at(schema, "fields"), 0)) == R"({"key":"str","label":"Str","format":"string"})");
    BOOST_TEST(to_text(at(at(schema, "fields"), 9)) == R"({"key":"hex","format":"hexadecimal","hidden":true})");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(samples)

BOOST_AUTO_TEST_CASE(samples_are_written_in_time_order_stably) {
    OneThread t;
    Profile& p = t.p;
    const StackHandle a = p.handle_for_stack(std::nullopt, t.frame("a"));
    const StackHandle b = p.handle_for_stack(std::nullopt, t.frame("b"));
    p.add_sample(t.thread, ms(3), a, CpuDelta::from_nanos(30), 1);
    p.add_sample(t.thread, ms(1), b, CpuDelta::from_nanos(10), 2);
    p.add_sample(t.thread, ms(3), b, CpuDelta::from_nanos(31), 3);  // same time: stays after
    p.add_sample(t.thread, ms(2), std::nullopt, std::nullopt, 4);

    const auto doc = t.json();
    const auto& s = at(at(at(doc, "threads"), 0), "samples");
    BOOST_TEST(to_text(at(s, "timeDeltas")) == "[1,1,1,0]");
    BOOST_TEST(to_text(at(s, "stack")) == "[1,null,0,1]");
    BOOST_TEST(to_text(at(s, "weight")) == "[2,4,1,3]");
    BOOST_TEST(to_text(at(s, "threadCPUDelta")) == "[10,null,30,31]");
    BOOST_TEST(std::string(at(s, "weightType").GetString()) == "samples");
    BOOST_TEST(at(s, "length").GetInt() == 4);
    BOOST_TEST(std::string(at(at(at(doc, "meta"), "sampleUnits"), "threadCPUDelta").GetString()) == "ns");
}

BOOST_AUTO_TEST_CASE(unit_weights_are_null_and_missing_cpu_deltas_omitted) {
    OneThread t;
    Profile& p = t.p;
    const StackHandle a = p.handle_for_stack(std::nullopt, t.frame("a"));
    p.add_sample(t.thread, ms(1), a, std::nullopt);
    p.add_sample(t.thread, ms(2), a, std::nullopt);
    const auto doc = t.json();
    const auto& s = at(at(at(doc, "threads"), 0), "samples");
    BOOST_TEST(at(s, "weight").IsNull());
    BOOST_TEST(!s.HasMember("threadCPUDelta"));
}

BOOST_AUTO_TEST_CASE(tracing_weights_are_milliseconds) {
    OneThread t;
    Profile& p = t.p;
    p.set_thread_weight_type(t.thread, WeightType::tracing_ms);
    const StackHandle a = p.handle_for_stack(std::nullopt, t.frame("a"));
    p.add_sample(t.thread, ms(1), a, std::nullopt, 2500000);
    const auto doc = t.json();
    const auto& s = at(at(at(doc, "threads"), 0), "samples");
    BOOST_TEST(to_text(at(s, "weight")) == "[2.5]");
    BOOST_TEST(std::string(at(s, "weightType").GetString()) == "tracing-ms");
}

BOOST_AUTO_TEST_CASE(profiling_range_covers_everything) {
    OneThread t;  // process and thread start at 0
    Profile& p = t.p;
    p.set_interval(Duration::from_millis(2));
    p.add_sample(t.thread, ms(10), std::nullopt, std::nullopt);
    p.add_marker(t.thread, MarkerTiming::interval(ms(5), ms(11)), p.handle_for_string("m"),
                 Profile::default_category());
    auto doc = t.json();
    BOOST_TEST(at(at(doc, "meta"), "profilingStartTime").GetDouble() == 0);
    BOOST_TEST(at(at(doc, "meta"), "profilingEndTime").GetDouble() == 12);  // sample + interval

    p.set_profiling_range(ms(-1), ms(20));
    doc = t.json();
    BOOST_TEST(at(at(doc, "meta"), "profilingStartTime").GetDouble() == -1);
    BOOST_TEST(at(at(doc, "meta"), "profilingEndTime").GetDouble() == 20);
    BOOST_TEST(at(at(doc, "meta"), "interval").GetDouble() == 2);
}

BOOST_AUTO_TEST_CASE(threads_and_processes) {
    Profile p("t");
    const ProcessHandle a = p.add_process("A", "100", ms(0));
    BOOST_CHECK_THROW(p.add_process("B", "100", ms(0)), Error);
    const ThreadHandle main_thread = p.add_thread(a, "main", 100, ms(0), true);
    BOOST_CHECK_THROW(p.add_thread(a, "main2", 101, ms(0), true), Error);
    const ThreadHandle other = p.add_thread(a, "other", 101, ms(2));
    p.set_thread_end_time(other, ms(5));
    p.set_process_end_time(a, ms(6));
    p.set_thread_show_markers_in_timeline(other, false);
    p.add_initial_visible_thread(main_thread);
    p.set_keep_profile_thread_order(true);
    const std::string text = profile_to_json(p);
    BOOST_TEST(validate_profile(text).empty());
    const auto doc = parse_json(text);
    const auto& t1 = at(at(doc, "threads"), 1);
    BOOST_TEST(std::string(at(t1, "pid").GetString()) == "100");
    BOOST_TEST(at(t1, "tid").GetInt() == 101);
    BOOST_TEST(std::string(at(t1, "processName").GetString()) == "A");
    BOOST_TEST(std::string(at(t1, "processType").GetString()) == "default");
    BOOST_TEST(at(t1, "registerTime").GetDouble() == 2);
    BOOST_TEST(at(t1, "unregisterTime").GetDouble() == 5);
    BOOST_TEST(at(t1, "processShutdownTime").GetDouble() == 6);
    BOOST_TEST(!at(t1, "isMainThread").GetBool());
    BOOST_TEST(!at(t1, "showMarkersInTimeline").GetBool());
    BOOST_TEST(to_text(at(t1, "pausedRanges")) == "[]");
    BOOST_TEST(at(at(at(doc, "threads"), 0), "isMainThread").GetBool());
    BOOST_TEST(to_text(at(at(doc, "meta"), "initialVisibleThreads")) == "[0]");
    BOOST_TEST(at(at(doc, "meta"), "keepProfileThreadOrder").GetBool());
}

// The writer keeps a table's rows as its first column reads them, up to a size, and reads a
// larger table again for each column: both give every column in the same order, the samples
// by time (stable), the markers as added.
BOOST_AUTO_TEST_CASE(small_and_large_tables_give_every_column_alike) {
    for (const std::size_t n : {std::size_t{1000}, (std::size_t{1} << 18) + 1000}) {
        BOOST_TEST_CONTEXT(n << " rows") {
            OneThread t;
            Profile& p = t.p;
            const StackHandle a = p.handle_for_stack(std::nullopt, t.frame("a"));
            const StackHandle b = p.handle_for_stack(std::nullopt, t.frame("b"));
            const StringHandle names[] = {p.handle_for_string("x"), p.handle_for_string("y")};
            struct Added {
                std::int64_t ms;
                std::size_t order;
            };
            std::vector<Added> added;
            std::string markers_start = "[", markers_end = "[", markers_name = "[", markers_phase = "[";
            for (std::size_t i = 0; i < n; ++i) {
                // Times in runs that go back now and then: several sorted runs to merge.
                const auto when = static_cast<std::int64_t>(i % 5000 == 4999 ? i / 2 : i);
                const std::optional<StackHandle> stack = i % 3 == 0 ? std::optional(a) : i % 3 == 1 ? std::optional(b) : std::nullopt;
                p.add_sample(t.thread, ms(when), stack, CpuDelta::from_nanos(static_cast<std::int64_t>(i)),
                             static_cast<std::int64_t>(i % 7 + 1));
                added.push_back({when, i});
                const std::string sep = i ? "," : "";
                const std::string at = std::to_string(when);
                switch (i % 4) {
                    case 0:
                        p.add_marker(t.thread, MarkerTiming::instant(ms(when)), names[0], Profile::default_category());
                        markers_start += sep + at, markers_end += sep + "null";
                        break;
                    case 1:
                        p.add_marker(t.thread, MarkerTiming::interval(ms(when), ms(when + 2)), names[1],
                                     Profile::default_category());
                        markers_start += sep + at, markers_end += sep + std::to_string(when + 2);
                        break;
                    case 2:
                        p.add_marker(t.thread, MarkerTiming::interval_start(ms(when)), names[0], Profile::default_category());
                        markers_start += sep + at, markers_end += sep + "null";
                        break;
                    default:
                        p.add_marker(t.thread, MarkerTiming::interval_end(ms(when)), names[0], Profile::default_category());
                        markers_start += sep + "null", markers_end += sep + at;
                        break;
                }
                markers_name += sep + std::to_string(names[i % 4 == 1 ? 1 : 0].index());
                markers_phase += sep + std::to_string(i % 4);
            }
            std::stable_sort(added.begin(), added.end(), [](const Added& x, const Added& y) { return x.ms < y.ms; });
            std::string deltas = "[", stacks = "[", weights = "[", cpu = "[";
            std::int64_t previous = 0;
            for (std::size_t k = 0; k < added.size(); ++k) {
                const std::string sep = k ? "," : "";
                const std::size_t i = added[k].order;
                deltas += sep + std::to_string(added[k].ms - previous);
                previous = added[k].ms;
                stacks += sep + (i % 3 == 0 ? std::to_string(a.index()) : i % 3 == 1 ? std::to_string(b.index()) : "null");
                weights += sep + std::to_string(i % 7 + 1);
                cpu += sep + std::to_string(i);
            }
            const auto doc = parse_json(profile_to_json(p));
            const auto& thread = at(at(doc, "threads"), 0);
            const auto& s = at(thread, "samples");
            BOOST_TEST(to_text(at(s, "timeDeltas")) == deltas + "]");
            BOOST_TEST(to_text(at(s, "stack")) == stacks + "]");
            BOOST_TEST(to_text(at(s, "weight")) == weights + "]");
            BOOST_TEST(to_text(at(s, "threadCPUDelta")) == cpu + "]");
            BOOST_TEST(at(s, "length").GetUint64() == n);
            const auto& m = at(thread, "markers");
            BOOST_TEST(to_text(at(m, "startTime")) == markers_start + "]");
            BOOST_TEST(to_text(at(m, "endTime")) == markers_end + "]");
            BOOST_TEST(to_text(at(m, "name")) == markers_name + "]");
            BOOST_TEST(to_text(at(m, "phase")) == markers_phase + "]");
            BOOST_TEST(at(m, "category").Size() == n);
            BOOST_TEST(at(m, "data").Size() == n);
            BOOST_TEST(at(m, "length").GetUint64() == n);
        }
    }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(counters)

BOOST_AUTO_TEST_CASE(counter_samples_and_display) {
    OneThread t;
    Profile& p = t.p;
    const CounterHandle heap = p.add_counter(t.proc, "Heap", "Memory", "heap bytes", CounterDisplay::memory("Heap"));
    p.add_counter_value(heap, ms(0), 1000, 1);
    p.add_counter_value(heap, ms(2), 3000);
    p.add_counter_value(heap, ms(3), 1500.5, 4);
    const CounterHandle rate =
        p.add_counter(t.proc, "Alloc", "Allocation", "alloc", CounterDisplay::byte_rate("Alloc"));
    p.add_counter_sample(rate, ms(5), 10);
    p.add_counter_sample(rate, ms(4), 20);  // out of order: sorted when written

    const auto doc = t.json();
    const auto& c0 = at(at(doc, "counters"), 0);
    BOOST_TEST(std::string(at(c0, "pid").GetString()) == "7");
    BOOST_TEST(at(c0, "mainThreadIndex").GetInt() == 0);
    BOOST_TEST(std::string(at(c0, "category").GetString()) == "Memory");
    const auto& s0 = at(c0, "samples");
    // A zero sample one interval (1 ms) before the first: the profiler ignores the first count.
    BOOST_TEST(to_text(at(s0, "timeDeltas")) == "[-1,1,2,1]");
    BOOST_TEST(to_text(at(s0, "count")) == "[0,1000,2000,-1499.5]");  // increments
    BOOST_TEST(to_text(at(s0, "number")) == "[0,1,0,4]");
    BOOST_TEST(at(s0, "length").GetInt() == 4);
    const auto& d0 = at(c0, "display");
    BOOST_TEST(std::string(at(d0, "graphType").GetString()) == "line-accumulated");
    BOOST_TEST(std::string(at(d0, "markerSchemaLocation").GetString()) == "timeline-memory");
    BOOST_TEST(std::string(at(d0, "color").GetString()) == "orange");
    BOOST_TEST(at(d0, "sortWeight").GetInt() == 20);
    BOOST_TEST(std::string(at(d0, "label").GetString()) == "Heap");
    BOOST_TEST(to_text(at(at(d0, "tooltipRows"), 0)) ==
               R"({"type":"value","source":"accumulated","format":{"unit":"bytes"},"label":"Heap"})");

    const auto& c1 = at(at(doc, "counters"), 1);
    const auto& s1 = at(c1, "samples");
    BOOST_TEST(to_text(at(s1, "timeDeltas")) == "[3,1,1]");
    BOOST_TEST(to_text(at(s1, "count")) == "[0,20,10]");
    BOOST_TEST(!s1.HasMember("number"));
    const auto& d1 = at(c1, "display");
    BOOST_TEST(std::string(at(d1, "graphType").GetString()) == "line-rate");
    BOOST_TEST(at(d1, "markerSchemaLocation").IsNull());
    bool separator = false, preview = false;
    for (const auto& row : at(d1, "tooltipRows").GetArray()) {
        if (std::string(row["type"].GetString()) == "separator") separator = true;
        if (row.HasMember("requiresPreviewSelection")) preview = true;
    }
    BOOST_TEST(separator);
    BOOST_TEST(preview);
}

BOOST_AUTO_TEST_CASE(a_zero_first_sample_needs_no_lead) {
    OneThread t;
    const CounterHandle c = t.p.add_counter(t.proc, "c", "Memory", "", CounterDisplay::memory("c"));
    t.p.add_counter_sample(c, ms(2), 0);
    t.p.add_counter_sample(c, ms(3), 5);
    const auto doc = t.json();
    const auto& s = at(at(at(doc, "counters"), 0), "samples");
    BOOST_TEST(to_text(at(s, "timeDeltas")) == "[2,1]");
    BOOST_TEST(to_text(at(s, "count")) == "[0,5]");
}

BOOST_AUTO_TEST_CASE(a_counter_needs_a_thread_in_its_process) {
    Profile p("t");
    const ProcessHandle lonely = p.add_process("lonely", "9", ms(0));
    p.add_counter(lonely, "c", "Memory", "", CounterDisplay::memory("c"));
    BOOST_CHECK_THROW(profile_to_json(p), Error);
    p.add_thread(lonely, "not main", 9, ms(0));
    const auto doc = parse_json(profile_to_json(p));
    BOOST_TEST(at(at(at(doc, "counters"), 0), "mainThreadIndex").GetInt() == 0);
}

BOOST_AUTO_TEST_CASE(non_finite_counts_are_refused) {
    OneThread t;
    const CounterHandle c = t.p.add_counter(t.proc, "c", "Memory", "", CounterDisplay::memory("c"));
    BOOST_CHECK_THROW(t.p.add_counter_sample(c, ms(0), std::numeric_limits<double>::infinity()), Error);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(meta)

BOOST_AUTO_TEST_CASE(required_meta_and_extra) {
    Profile p = make_small_profile();
    const auto doc = parse_json(profile_to_json(p));
    const auto& m = at(doc, "meta");
    BOOST_TEST(at(m, "preprocessedProfileVersion").GetInt() == 70);
    BOOST_TEST(at(m, "version").GetInt() == 24);
    BOOST_TEST(at(m, "symbolicated").GetBool());
    BOOST_TEST(at(m, "usesOnlyOneStackType").GetBool());
    BOOST_TEST(at(m, "processType").GetInt() == 0);
    BOOST_TEST(at(m, "stackwalk").GetInt() == 0);
    BOOST_TEST(std::string(at(m, "product").GetString()) == "small test profile");
    BOOST_TEST(at(m, "startTime").GetDouble() == 1767225600123.456789);
    BOOST_TEST(at(m, "interval").GetDouble() == 0.5);
    BOOST_TEST(std::string(at(m, "arguments").GetString()) == "prog +RTS -l");
    BOOST_TEST(to_text(at(m, "extra")) == R"([{"label":"RTS","entries":[)"
                                          R"({"label":"Version","format":"string","value":"GHC 9.6"},)"
                                          R"({"label":"Allocated","format":"bytes","value":1536},)"
                                          R"({"label":"GC time","format":"duration","value":1.25}]}])");
    BOOST_TEST(to_text(at(doc, "libs")) == "[]");
}

// The source view's inputs: a source's text (shared.sources.content, null without), a library
// and an address on a frame (libs[], frameTable.lib/address: the profiler's "address proof").
BOOST_AUTO_TEST_CASE(sources_carry_their_text_and_frames_their_library) {
    Profile p("sources");
    const SourceHandle with = p.handle_for_source(p.handle_for_string("Main.hs"));
    p.handle_for_source(p.handle_for_string("Other.hs"));
    p.set_source_content(with, "main = print \"\u00e9\"\n");
    const LibHandle lib =
        p.handle_for_lib(Lib{.name = "Haskell sources", .debug_name = "ghc-source-locations", .breakpad_id = "0"});
    BOOST_TEST(
        p.handle_for_lib(Lib{.name = "Haskell sources", .debug_name = "ghc-source-locations", .breakpad_id = "0"})
            .index() == lib.index());
    const FuncHandle f = p.handle_for_func({.name = p.handle_for_string("main"), .source = with, .line = 3});
    const FrameHandle located = p.handle_for_frame({.func = f, .line = 3, .lib = lib, .address = 0});
    const FrameHandle plain = p.handle_for_frame({.func = f});
    BOOST_TEST(located.index() != plain.index());
    BOOST_CHECK_THROW(p.handle_for_frame({.func = f, .lib = lib}), el2fx::Error);  // lib without address
    BOOST_CHECK_THROW(p.set_source_content(SourceHandle(7), "x"), el2fx::Error);
    const auto doc = parse_json(profile_to_json(p));
    const auto& sources = at(at(doc, "shared"), "sources");
    BOOST_TEST(to_text(at(sources, "content")) == "[\"main = print \\\"\u00e9\\\"\\n\",null]");
    const auto& frames = at(at(doc, "shared"), "frameTable");
    BOOST_TEST(to_text(at(frames, "lib")) == "[0,-1]");
    BOOST_TEST(to_text(at(frames, "address")) == "[0,-1]");
    BOOST_TEST(to_text(at(frames, "line")) == "[3,null]");
    BOOST_TEST(to_text(at(doc, "libs")) ==
               R"([{"arch":"","name":"Haskell sources","path":"","debugName":"ghc-source-locations",)"
               R"("debugPath":"","breakpadId":"0","codeId":""}])");
}

BOOST_AUTO_TEST_SUITE_END()

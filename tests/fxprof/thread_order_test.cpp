// The threads shown at first are written first, so that a profile shared without its hidden
// threads (the Share panel's "Include hidden threads" unticked) keeps meta.initialVisibleThreads
// and meta.initialSelectedThreads valid and naming the same threads (issue 19).
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include "check/profile_check.hpp"
#include "fxprof/thread_order.hpp"
#include "fxprof_test_util.hpp"
#include "share_simulation.hpp"

using namespace el2fx::fxprof;
using namespace el2fx::fxprof::testing;
using el2fx::check::validate_profile;

namespace {

// Three processes: the first shows its main thread, "b" and "d" (not "a", "c"); the second
// shows "f" only; the third shows nothing. Handles are deliberately in an order where the shown
// threads are not the first ones. Returns the JSON.
std::string mixed_profile(bool with_lists = true) {
    Profile p("mixed");
    const ProcessHandle p1 = p.add_process("one", "100", ms(0));
    const ProcessHandle p2 = p.add_process("two", "200", ms(0));
    const ProcessHandle p3 = p.add_process("three", "300", ms(0));
    const ThreadHandle m1 = p.add_thread(p1, "one main", 100, ms(0), true);
    const ThreadHandle a = p.add_thread(p1, "a", 101, ms(0));
    const ThreadHandle m3 = p.add_thread(p3, "three main", 300, ms(0), true);
    const ThreadHandle b = p.add_thread(p1, "b", 102, ms(0));
    const ThreadHandle e = p.add_thread(p2, "e", 201, ms(0));  // two has no main thread
    const ThreadHandle c = p.add_thread(p1, "c", 103, ms(0));
    const ThreadHandle f = p.add_thread(p2, "f", 202, ms(0));
    const ThreadHandle d = p.add_thread(p1, "d", 104, ms(0));
    const ThreadHandle g = p.add_thread(p3, "g", 301, ms(0));
    for (ThreadHandle t : {m1, a, m3, b, e, c, f, d, g}) p.add_sample(t, ms(1), std::nullopt, std::nullopt);
    const CounterHandle heap1 = p.add_counter(p1, "Heap one", "Memory", "heap", CounterDisplay::memory("Heap one"));
    p.add_counter_value(heap1, ms(1), 10);
    const CounterHandle heap2 = p.add_counter(p2, "Heap two", "Memory", "heap", CounterDisplay::memory("Heap two"));
    p.add_counter_value(heap2, ms(1), 20);
    if (with_lists) {
        for (ThreadHandle t : {d, f, b}) p.add_initial_visible_thread(t);  // any order
        p.add_initial_selected_thread(f);
    }
    return profile_to_json(p);
}

std::vector<std::string> names_at(const rapidjson::Value& doc, const rapidjson::Value& indexes) {
    std::vector<std::string> out;
    for (const auto& i : indexes.GetArray()) out.push_back(doc["threads"][i.GetUint()]["name"].GetString());
    return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(thread_order)

BOOST_AUTO_TEST_CASE(shown_are_the_listed_threads_and_their_processes_main_threads) {
    const std::vector<ThreadSlot> slots = {{"1", true},  {"1", false}, {"2", true},
                                           {"2", false}, {"1", false}, {"3", false}};
    const std::vector<std::uint32_t> listed = {4, 5, 99};  // 99: past the end, ignored
    const std::vector<bool> shown = threads_shown_at_first(slots, listed);
    BOOST_TEST(shown == (std::vector<bool>{true, false, false, false, true, true}));
    BOOST_TEST(shown_first_order(shown) == (std::vector<std::uint32_t>{0, 4, 5, 1, 2, 3}));
    BOOST_TEST(shown_prefix_length(shown) == -1);
    BOOST_TEST(shown_prefix_length(std::vector<bool>{true, true, false}) == 2);
    // Without a list the profiler chooses: every thread counts as shown, the order stays.
    BOOST_TEST(shown_prefix_length(threads_shown_at_first(slots, {})) == 6);
}

BOOST_AUTO_TEST_CASE(shown_threads_are_written_first_in_their_own_order) {
    auto doc = parse_json(mixed_profile());
    std::vector<std::string> names;
    for (const auto& t : doc["threads"].GetArray()) names.push_back(t["name"].GetString());
    BOOST_TEST(names == (std::vector<std::string>{"one main", "b", "f", "d", "a", "three main", "e", "c", "g"}));
    // Meta's lists name the same threads as the handles given to the builder.
    BOOST_TEST(names_at(doc, doc["meta"]["initialVisibleThreads"]) == (std::vector<std::string>{"d", "f", "b"}));
    BOOST_TEST(names_at(doc, doc["meta"]["initialSelectedThreads"]) == (std::vector<std::string>{"f"}));
    // Counters point at their process's main thread, else its first thread as written.
    BOOST_TEST(std::string(doc["threads"][doc["counters"][0]["mainThreadIndex"].GetUint()]["name"].GetString()) ==
               "one main");
    BOOST_TEST(std::string(doc["threads"][doc["counters"][1]["mainThreadIndex"].GetUint()]["name"].GetString()) == "f");
    BOOST_TEST(validate_profile(mixed_profile()).empty());
}

BOOST_AUTO_TEST_CASE(every_index_in_the_lists_is_below_the_number_of_threads_shown) {
    auto doc = parse_json(mixed_profile());
    const std::size_t shown = 4;  // one main, b, f, d
    for (const char* list : {"initialVisibleThreads", "initialSelectedThreads"})
        for (const auto& i : doc["meta"][list].GetArray()) BOOST_TEST(i.GetUint64() < shown);
}

BOOST_AUTO_TEST_CASE(shared_without_hidden_threads_the_lists_still_name_the_same_threads) {
    auto doc = parse_json(mixed_profile());
    const auto shared = el2fx::testing::share_without_hidden_threads(doc);
    BOOST_TEST(shared.kept.size() == 4u);
    BOOST_TEST(shared.problems.empty(), (shared.problems.empty() ? "" : shared.problems.front()));
}

BOOST_AUTO_TEST_CASE(without_lists_the_order_is_the_builders) {
    auto doc = parse_json(mixed_profile(false));
    std::vector<std::string> names;
    for (const auto& t : doc["threads"].GetArray()) names.push_back(t["name"].GetString());
    BOOST_TEST(names == (std::vector<std::string>{"one main", "a", "three main", "b", "e", "c", "f", "d", "g"}));
    BOOST_TEST(!doc["meta"].HasMember("initialVisibleThreads"));
}

BOOST_AUTO_TEST_CASE(validator_rejects_shown_threads_after_hidden_ones) {
    auto doc = parse_json(mixed_profile());
    // Swap the lists onto threads after the hidden ones, as the old writer did.
    auto& visible = doc["meta"]["initialVisibleThreads"];
    visible.Clear();
    for (unsigned i : {1u, 7u}) visible.PushBack(i, doc.GetAllocator());
    const auto problems = validate_profile(to_text(doc));
    BOOST_REQUIRE(!problems.empty());
    BOOST_TEST(problems.front().find("meta.initialVisibleThreads") == 0u);
    const auto shared = el2fx::testing::share_without_hidden_threads(doc);
    BOOST_TEST(!shared.problems.empty());
}

BOOST_AUTO_TEST_CASE(validator_rejects_a_selected_thread_hidden_at_first) {
    auto doc = parse_json(mixed_profile());
    auto& selected = doc["meta"]["initialSelectedThreads"];
    selected.Clear();
    selected.PushBack(5u, doc.GetAllocator());  // "three main": its process shows nothing
    const auto problems = validate_profile(to_text(doc));
    BOOST_REQUIRE(problems.size() == 1u);
    BOOST_TEST(problems.front().find("meta.initialSelectedThreads[0]") == 0u);
}

BOOST_AUTO_TEST_CASE(update_channel_is_written_when_set) {
    Profile p("x");
    p.add_thread(p.add_process("x", "1", ms(0)), "main", 1, ms(0), true);
    BOOST_TEST(!parse_json(profile_to_json(p))["meta"].HasMember("updateChannel"));
    p.set_update_channel(v70::kUpdateChannelRelease);
    const std::string json = profile_to_json(p);
    BOOST_TEST(std::string(parse_json(json)["meta"]["updateChannel"].GetString()) == "release");
    BOOST_TEST(validate_profile(json).empty());
}

BOOST_AUTO_TEST_SUITE_END()

// Bounded-memory tables: the spill store, sorted runs and their merge, counter resolution.
#include <algorithm>
#include <cstdlib>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "fxprof/profile.hpp"
#include "fxprof/profile_writer.hpp"
#include "fxprof/spill_store.hpp"
#include "fxprof_test_util.hpp"
#include "util/error.hpp"

using namespace el2fx::fxprof;
using namespace el2fx::fxprof::testing;

namespace {

constexpr std::size_t kTinyBudget = 4096;
constexpr std::size_t kHugeBudget = std::size_t{1} << 40;

// Sets an environment variable for the scope of the object.
class EnvVar {
public:
    EnvVar(const char* name, const std::string& value) : name_(name) {
        if (const char* old = std::getenv(name)) old_ = old;
        ::setenv(name, value.c_str(), 1);
    }
    ~EnvVar() {
        if (old_)
            ::setenv(name_, old_->c_str(), 1);
        else
            ::unsetenv(name_);
    }
    EnvVar(const EnvVar&) = delete;
    EnvVar& operator=(const EnvVar&) = delete;

private:
    const char* name_;
    std::optional<std::string> old_;
};

// A profile with every kind of bulky row: samples in and out of time order on several threads,
// markers of every phase and field value type (and one with many fields), counters with and
// without numbers, added out of order too.
Profile make_bulky_profile(std::size_t budget, int rows) {
    Profile p("bulky");
    p.set_table_memory_budget(budget);
    p.set_interval(Duration::from_micros(100));
    std::mt19937_64 rng(42);
    auto rand = [&](std::uint64_t n) { return static_cast<std::int64_t>(rng() % n); };

    const CategoryHandle cat = p.handle_for_category("Work", CategoryColor::green);
    const ProcessHandle proc = p.add_process("prog", "1", ms(0));
    std::vector<ThreadHandle> threads;
    for (int i = 0; i < 5; ++i) threads.push_back(p.add_thread(proc, "t" + std::to_string(i), i, ms(0), i == 0));
    std::vector<StackHandle> stacks;
    for (int i = 0; i < 40; ++i) {
        const FuncHandle f = p.handle_for_func({.name = p.handle_for_string("f" + std::to_string(i))});
        const FrameHandle fr = p.handle_for_frame({.func = f, .category = cat});
        stacks.push_back(p.handle_for_stack(i == 0 ? std::nullopt : std::optional(stacks[i / 2]), fr));
    }

    const MarkerSchemaHandle all_types = p.register_marker_schema(MarkerSchema{
        .name = "AllTypes",
        .display = {DisplayLocation::marker_chart},
        .fields = {{"s", "", FieldFormat::string},
                   {"u", "", FieldFormat::unique_string},
                   {"i", "", FieldFormat::integer},
                   {"neg", "", FieldFormat::integer},
                   {"r", "", FieldFormat::decimal},
                   {"d", "", FieldFormat::duration},
                   {"ns", "", FieldFormat::nanoseconds},
                   {"t", "", FieldFormat::time},
                   {"b", "", FieldFormat::bytes}},
    });
    MarkerSchema wide_schema{.name = "Wide", .display = {DisplayLocation::marker_table}};
    for (int i = 0; i < 60; ++i) wide_schema.fields.push_back({"k" + std::to_string(i), "", FieldFormat::integer});
    const MarkerSchemaHandle wide = p.register_marker_schema(wide_schema);
    std::vector<StringHandle> names;
    for (int i = 0; i < 20; ++i) names.push_back(p.handle_for_string("marker " + std::to_string(i)));

    const CounterHandle levels = p.add_counter(proc, "Heap", "Memory", "levels", CounterDisplay::memory("Heap"));
    const CounterHandle rates = p.add_counter(proc, "Alloc", "Memory", "rates", CounterDisplay::byte_rate("Alloc"));

    std::int64_t now = 0;
    double level = 0;
    for (int i = 0; i < rows; ++i) {
        now += rand(50000);
        const ThreadHandle t = threads[static_cast<std::size_t>(rand(threads.size()))];
        // Mostly in order; now and then a sample from the past.
        const std::int64_t st = rand(10) == 0 ? now - rand(5000000) : now;
        const std::optional<StackHandle> stack =
            rand(7) == 0 ? std::nullopt : std::optional(stacks[static_cast<std::size_t>(rand(stacks.size()))]);
        const std::optional<CpuDelta> cpu =
            rand(5) == 0 ? std::nullopt : std::optional(CpuDelta::from_nanos(rand(2000000)));
        p.add_sample(t, Timestamp::from_nanos(st), stack, cpu, rand(3) == 0 ? rand(100000) : 1);

        const StringHandle name = names[static_cast<std::size_t>(rand(names.size()))];
        const Timestamp start = Timestamp::from_nanos(now - rand(1000000));
        switch (rand(6)) {
            case 0:
                p.add_marker(t, MarkerTiming::interval(start, Timestamp::from_nanos(now)), name, cat, all_types,
                             {name, names[0], rand(1000), -rand(1LL << 40), 0.5 * static_cast<double>(rand(999)),
                              Duration::from_nanos(rand(1LL << 33)), Duration::from_nanos(rand(100)),
                              Timestamp::from_nanos(now - rand(1LL << 30)), rand(1LL << 50)});
                break;
            case 1: p.add_marker(t, MarkerTiming::instant(start), name, cat); break;
            case 2: p.add_marker(t, MarkerTiming::interval_start(start), name, cat); break;
            case 3: p.add_marker(t, MarkerTiming::interval_end(start), name, cat); break;
            case 4: {
                std::vector<FieldValue> values;
                for (int k = 0; k < 60; ++k) values.emplace_back(rand(1LL << 62));
                p.add_marker(t, MarkerTiming::instant(start), name, cat, wide, values);
                break;
            }
            default:
                p.add_marker(t, MarkerTiming::interval(start, start), name, cat, all_types,
                             {name, name, 0, 0, -1.25, Duration{}, Duration{}, start, 0});
        }

        if (i % 3 == 0) {
            level += static_cast<double>(rand(1 << 20)) - (1 << 19);
            p.add_counter_value(levels, Timestamp::from_nanos(now), level,
                                rand(2) == 0 ? std::nullopt : std::optional<std::uint32_t>(rand(1000)));
        }
        if (i % 4 == 0)
            p.add_counter_sample(rates, Timestamp::from_nanos(rand(5) == 0 ? now - rand(3000000) : now),
                                 static_cast<double>(rand(1 << 16)));
    }
    return p;
}

struct Row {
    std::int64_t time, id;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(spill)

BOOST_AUTO_TEST_CASE(spilled_tables_write_the_same_json_as_in_memory_ones) {
    const Profile in_memory = make_bulky_profile(kHugeBudget, 20000);
    const Profile spilled = make_bulky_profile(kTinyBudget, 20000);
    BOOST_TEST(in_memory.table_stats().spilled_chunks == 0u);
    BOOST_TEST(spilled.table_stats().spilled_chunks > 100u);
    BOOST_TEST(spilled.table_stats().file_bytes > 0u);
    // A few tables' open chunks (up to 64 KiB each) may exceed the budget, nothing more.
    BOOST_TEST(spilled.table_stats().peak_memory_bytes < kTinyBudget + 8 * SpillStore::kMaxChunk);
    const std::string a = profile_to_json(in_memory);
    const std::string b = profile_to_json(spilled);
    BOOST_TEST(a.size() > 1000000u);
    BOOST_TEST((a == b));
    BOOST_TEST((parse_json(a) == parse_json(b)));
    // Writing twice reads the spilled chunks again.
    BOOST_TEST((profile_to_json(spilled) == b));
}

BOOST_AUTO_TEST_CASE(out_of_order_samples_come_out_in_a_stable_sort_by_time) {
    for (const std::size_t budget : {kTinyBudget, kHugeBudget}) {
        Profile p("runs");
        p.set_table_memory_budget(budget);
        const ProcessHandle proc = p.add_process("prog", "1", ms(0));
        const ThreadHandle t = p.add_thread(proc, "t", 1, ms(0));
        std::mt19937_64 rng(7);
        std::vector<Row> expected;
        for (std::int64_t i = 0; i < 30000; ++i) {
            // Few distinct times, so that ties (and their order) matter.
            const std::int64_t time = static_cast<std::int64_t>(rng() % 500);
            p.add_sample(t, Timestamp::from_nanos(time), std::nullopt, std::nullopt, i);
            expected.push_back({time, i});
        }
        std::stable_sort(expected.begin(), expected.end(), [](const Row& a, const Row& b) { return a.time < b.time; });
        const SampleTable& s = p.threads()[0].samples;
        BOOST_TEST(s.size() == expected.size());
        // ~15000 natural runs, compacted whenever there were more than 32.
        BOOST_TEST(s.run_count() <= RunTable<SampleCodec>::kMaxRuns + 1);
        std::vector<Row> got;
        s.for_each([&](const SampleRow& r) { got.push_back({r.time, r.weight}); });
        BOOST_REQUIRE(got.size() == expected.size());
        bool same = true;
        for (std::size_t i = 0; i < got.size(); ++i)
            same = same && got[i].time == expected[i].time && got[i].id == expected[i].id;
        BOOST_TEST(same);

        // The JSON has the same order.
        const auto doc = parse_json(profile_to_json(p));
        const auto& samples = at(at(at(doc, "threads"), 0), "samples");
        const auto& deltas = at(samples, "timeDeltas").GetArray();
        const auto& weights = at(samples, "weight").GetArray();
        BOOST_REQUIRE(deltas.Size() == expected.size());
        double time = 0;
        bool json_same = true;
        for (rapidjson::SizeType i = 0; i < deltas.Size(); ++i) {
            time += deltas[i].GetDouble() * 1e6;
            json_same = json_same && static_cast<std::int64_t>(time + 0.5) == expected[i].time &&
                        weights[i].GetInt64() == expected[i].id;
        }
        BOOST_TEST(json_same);
    }
}

// A track fed from many places (the folded threads' from both cores, in chunks): its samples
// of one time and stack become one, those of one time in stack order, whatever order and runs
// they came in; weights and CPU time summed, the table's count and "all weights one" follow.
BOOST_AUTO_TEST_CASE(samples_of_one_instant_sum_by_stack_whatever_order_they_came_in) {
    for (const std::size_t budget : {kTinyBudget, kHugeBudget}) {
        std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>> tables;  // (stack, weight) in order
        for (const std::uint64_t seed : {1u, 2u}) {
            Profile p("sums");
            p.set_table_memory_budget(budget);
            const ProcessHandle proc = p.add_process("prog", "1", ms(0));
            const ThreadHandle t = p.add_thread(proc, "t", 1, ms(0));
            const FuncHandle f = p.handle_for_func({.name = p.handle_for_string("f")});
            std::vector<StackHandle> stacks{p.handle_for_stack(std::nullopt, p.handle_for_frame({.func = f}))};
            for (int i = 1; i < 5; ++i)
                stacks.push_back(p.handle_for_stack(stacks.back(), p.handle_for_frame({.func = f})));
            // The same multiset of samples, in another order each time: 20 times, 5 stacks.
            std::vector<std::pair<std::int64_t, int>> samples;
            for (int i = 0; i < 4000; ++i) samples.emplace_back(i % 20, i % 7 % 5);
            std::shuffle(samples.begin(), samples.end(), std::mt19937_64(seed));
            for (const auto& [time, stack] : samples)
                p.add_sample(t, Timestamp::from_nanos(time * 1000), stacks[static_cast<std::size_t>(stack)],
                             std::nullopt, 1);
            BOOST_TEST(p.threads()[0].samples.all_weights_one());
            p.sum_same_instants(t);
            const SampleTable& s = p.threads()[0].samples;
            BOOST_TEST(s.size() == 100u);  // every (time, stack) pair once
            BOOST_TEST(!s.all_weights_one());
            BOOST_TEST(s.sorted());
            std::vector<std::pair<std::int64_t, std::int64_t>> rows;
            std::int64_t total = 0, last_time = -1, last_stack = -1;
            bool ordered = true;
            s.for_each([&](const SampleRow& r) {
                ordered = ordered && (r.time > last_time || r.stack > last_stack);
                last_time = r.time;
                last_stack = r.stack;
                total += r.weight;
                rows.emplace_back(r.time * 100 + r.stack, r.weight);
            });
            BOOST_TEST(ordered);
            BOOST_TEST(total == 4000);
            tables.push_back(rows);
        }
        BOOST_TEST((tables[0] == tables[1]));
    }
}

BOOST_AUTO_TEST_CASE(sums_of_an_instant_add_cpu_time_where_a_sample_has_some) {
    Profile p("cpu");
    const ProcessHandle proc = p.add_process("prog", "1", ms(0));
    const ThreadHandle t = p.add_thread(proc, "t", 1, ms(0));
    p.add_sample(t, ms(1), std::nullopt, CpuDelta::from_nanos(5), 1);
    p.add_sample(t, ms(2), std::nullopt, std::nullopt, 1);
    p.add_sample(t, ms(1), std::nullopt, std::nullopt, 2);
    p.add_sample(t, ms(1), std::nullopt, CpuDelta::from_nanos(7), 1);
    p.add_sample(t, ms(2), std::nullopt, std::nullopt, 1);
    p.sum_same_instants(t);
    std::vector<std::pair<std::int64_t, std::int64_t>> got;  // (cpu, weight)
    p.threads()[0].samples.for_each([&](const SampleRow& r) { got.emplace_back(r.cpu_delta, r.weight); });
    BOOST_TEST((got == std::vector<std::pair<std::int64_t, std::int64_t>>{{12, 4}, {SampleTable::kNoCpuDelta, 2}}));
}

BOOST_AUTO_TEST_CASE(decreasing_times_compact_into_few_runs) {
    // The worst case for runs: every sample starts one.
    Profile p("decreasing");
    p.set_table_memory_budget(kTinyBudget);
    const ProcessHandle proc = p.add_process("prog", "1", ms(0));
    const ThreadHandle t = p.add_thread(proc, "t", 1, ms(0));
    const std::int64_t n = 20000;
    for (std::int64_t i = 0; i < n; ++i) p.add_sample(t, Timestamp::from_nanos(n - i), std::nullopt, std::nullopt, i);
    const SampleTable& s = p.threads()[0].samples;
    BOOST_TEST(s.run_count() <= RunTable<SampleCodec>::kMaxRuns + 1);
    std::int64_t expect = 1;
    bool ordered = true;
    s.for_each([&](const SampleRow& r) {
        ordered = ordered && r.time == expect && r.weight == n - expect;
        ++expect;
    });
    BOOST_TEST(ordered);
    BOOST_TEST(expect == n + 1);
}

BOOST_AUTO_TEST_CASE(counter_samples_out_of_order_are_sorted_stably) {
    Profile p("counters");
    p.set_table_memory_budget(kTinyBudget);
    const ProcessHandle proc = p.add_process("prog", "1", ms(0));
    p.add_thread(proc, "t", 1, ms(0), true);
    const CounterHandle c = p.add_counter(proc, "c", "Memory", "", CounterDisplay::byte_rate("c"));
    std::mt19937_64 rng(3);
    std::vector<Row> expected;
    for (std::int64_t i = 0; i < 5000; ++i) {
        const std::int64_t time = 1000 + static_cast<std::int64_t>(rng() % 300);
        p.add_counter_sample(c, Timestamp::from_nanos(time), static_cast<double>(i));
        expected.push_back({time, i});
    }
    std::stable_sort(expected.begin(), expected.end(), [](const Row& a, const Row& b) { return a.time < b.time; });
    std::vector<Row> got;
    p.counters()[0].samples.for_each([&](const CounterSampleRow& r) {
        got.push_back({r.time, static_cast<std::int64_t>(r.count)});
    });
    BOOST_REQUIRE(got.size() == expected.size());
    bool same = true;
    for (std::size_t i = 0; i < got.size(); ++i)
        same = same && got[i].time == expected[i].time && got[i].id == expected[i].id;
    BOOST_TEST(same);
}

BOOST_AUTO_TEST_CASE(an_unwritable_temporary_directory_is_an_error_not_a_crash) {
    ScratchDir dir;
    const EnvVar tmpdir("TMPDIR", dir.path() + "/does-not-exist");
    Profile p("no room");
    p.set_table_memory_budget(kTinyBudget);
    const ProcessHandle proc = p.add_process("prog", "1", ms(0));
    const ThreadHandle t = p.add_thread(proc, "t", 1, ms(0));
    std::string message;
    try {
        for (std::int64_t i = 0; i < 100000; ++i)
            p.add_sample(t, Timestamp::from_nanos(i), std::nullopt, CpuDelta::from_nanos(i));
    } catch (const el2fx::Error& e) {
        message = e.what();
    }
    BOOST_TEST(message.find("cannot create a temporary file") != std::string::npos, message);
    BOOST_TEST(message.find("does-not-exist") != std::string::npos, message);
    BOOST_TEST(dir.entries().empty());
}

BOOST_AUTO_TEST_CASE(the_temporary_file_is_unlinked_and_its_slots_reused) {
    ScratchDir dir;
    const EnvVar tmpdir("TMPDIR", dir.path());
    SpillStore store(kTinyBudget);
    std::vector<SpillStream> streams(4);
    auto fill = [&](SpillStream& s, std::uint8_t seed) {
        for (int i = 0; i < 20000; ++i) {
            std::uint8_t* p = s.reserve(store, 8);
            for (int k = 0; k < 8; ++k) p[k] = static_cast<std::uint8_t>(seed + i + k);
            s.commit(8);
        }
        s.close(store);
    };
    for (std::size_t i = 0; i < streams.size(); ++i) fill(streams[i], static_cast<std::uint8_t>(i));
    BOOST_TEST(store.stats().spilled_chunks > 0u);
    BOOST_TEST(dir.entries().empty());  // unlinked at once
    const std::uint64_t file = store.stats().file_bytes;
    streams[1].release(store);
    streams[2].release(store);
    fill(streams[1], 9);
    BOOST_TEST(store.stats().file_bytes <= file);  // freed slots taken again
    // What was written reads back.
    for (const auto& [index, seed] : {std::pair{0, 0}, {1, 9}, {3, 3}}) {
        SpillReader reader(store, streams[static_cast<std::size_t>(index)]);
        std::span<const std::uint8_t> bytes;
        std::vector<std::uint8_t> all;
        while (reader.next(bytes)) all.insert(all.end(), bytes.begin(), bytes.end());
        BOOST_REQUIRE(all.size() == 20000u * 8);
        bool same = true;
        for (std::size_t i = 0; i < 20000; ++i)
            for (std::size_t k = 0; k < 8; ++k)
                same = same && all[i * 8 + k] == static_cast<std::uint8_t>(seed + i + k);
        BOOST_TEST(same, "stream " << index);
    }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(counter_resolution)

namespace {

struct OneCounter {
    Profile p{"resolution"};
    CounterHandle c{0};
    explicit OneCounter(std::int64_t resolution_ns, bool accumulated = false) {
        p.set_counter_resolution(Duration::from_nanos(resolution_ns));
        const ProcessHandle proc = p.add_process("prog", "1", ms(0));
        p.add_thread(proc, "t", 1, ms(0), true);
        c = p.add_counter(proc, "c", "Memory", "",
                          accumulated ? CounterDisplay::memory("c") : CounterDisplay::byte_rate("c"));
    }
    std::vector<CounterSampleRow> rows() const {
        std::vector<CounterSampleRow> out;
        p.counters()[0].samples.for_each([&](const CounterSampleRow& r) { out.push_back(r); });
        return out;
    }
};

std::string text(const std::vector<CounterSampleRow>& rows) {
    std::string out;
    for (const auto& r : rows)
        out += std::to_string(r.time) + ":" + std::to_string(static_cast<std::int64_t>(r.count)) + "/" +
               std::to_string(r.number) + " ";
    return out;
}

}  // namespace

BOOST_AUTO_TEST_CASE(zero_keeps_every_sample) {
    OneCounter k(0);
    for (int i = 0; i < 5; ++i) k.p.add_counter_sample(k.c, Timestamp::from_nanos(i), 1);
    BOOST_TEST(k.rows().size() == 5u);
    BOOST_TEST(k.p.counter_resolution().nanos() == 0);
}

BOOST_AUTO_TEST_CASE(samples_closer_than_the_resolution_are_merged_at_the_latest_time) {
    OneCounter k(100);
    k.p.add_counter_sample(k.c, Timestamp::from_nanos(1000), 1, 1u);  // the first: pending
    k.p.add_counter_sample(k.c, Timestamp::from_nanos(1050), 2, 2u);
    k.p.add_counter_sample(k.c, Timestamp::from_nanos(1099), 4);      // 99 after: merged
    k.p.add_counter_sample(k.c, Timestamp::from_nanos(1100), 8, 3u);  // exactly r after: new
    k.p.add_counter_sample(k.c, Timestamp::from_nanos(1150), 16);
    k.p.add_counter_sample(k.c, Timestamp::from_nanos(1250), 32);  // 150 after 1100: new
    BOOST_TEST(text(k.rows()) == "1099:7/3 1150:24/3 1250:32/0 ");
    BOOST_TEST(k.p.counters()[0].samples.size() == 3u);

    const auto doc = parse_json(profile_to_json(k.p));
    const auto& s = at(at(at(doc, "counters"), 0), "samples");
    BOOST_TEST(to_text(at(s, "count")) == "[0,7,24,32]");
    BOOST_TEST(to_text(at(s, "number")) == "[0,3,3,0]");
    BOOST_TEST(at(s, "length").GetInt() == 4);
}

BOOST_AUTO_TEST_CASE(a_single_sample_is_written_as_it_is) {
    OneCounter k(1000000);
    k.p.add_counter_sample(k.c, Timestamp::from_nanos(5), 3);
    BOOST_TEST(text(k.rows()) == "5:3/0 ");
}

BOOST_AUTO_TEST_CASE(an_earlier_sample_is_not_merged_into_a_later_one) {
    OneCounter k(100);
    k.p.add_counter_sample(k.c, Timestamp::from_nanos(1000), 1);
    k.p.add_counter_sample(k.c, Timestamp::from_nanos(990), 2);  // before the pending sample
    k.p.add_counter_sample(k.c, Timestamp::from_nanos(995), 4);
    BOOST_TEST(text(k.rows()) == "995:6/0 1000:1/0 ");
}

BOOST_AUTO_TEST_CASE(levels_stay_exact_and_the_total_unchanged) {
    OneCounter fine(0, true), coarse(1000, true);
    std::mt19937_64 rng(11);
    std::int64_t now = 0;
    std::vector<std::pair<std::int64_t, double>> levels;
    for (int i = 0; i < 5000; ++i) {
        now += static_cast<std::int64_t>(rng() % 300);
        const double level = static_cast<double>(rng() % (1 << 24));
        levels.emplace_back(now, level);
        fine.p.add_counter_value(fine.c, Timestamp::from_nanos(now), level);
        coarse.p.add_counter_value(coarse.c, Timestamp::from_nanos(now), level);
    }
    const auto rows = coarse.rows();
    BOOST_TEST(rows.size() < fine.rows().size() / 2);
    // At every written sample, the running sum is the level given at that time.
    double sum = 0;
    std::size_t j = 0;
    bool exact = true;
    for (const auto& r : rows) {
        sum += r.count;
        while (j + 1 < levels.size() && levels[j + 1].first <= r.time) ++j;
        exact = exact && sum == levels[j].second;
    }
    BOOST_TEST(exact);
    BOOST_TEST(sum == levels.back().second);
    BOOST_TEST(rows.back().time == levels.back().first);
    for (std::size_t i = 1; i < rows.size(); ++i) BOOST_TEST_REQUIRE(rows[i].time > rows[i - 1].time);
}

BOOST_AUTO_TEST_CASE(numbers_saturate) {
    OneCounter k(100);
    k.p.add_counter_sample(k.c, Timestamp::from_nanos(0), 1, UINT32_MAX - 1);
    k.p.add_counter_sample(k.c, Timestamp::from_nanos(1), 1, 5u);
    BOOST_TEST(k.rows().at(0).number == UINT32_MAX);
}

BOOST_AUTO_TEST_CASE(a_negative_resolution_is_refused) {
    Profile p("x");
    BOOST_CHECK_THROW(p.set_counter_resolution(Duration::from_nanos(-1)), el2fx::Error);
}

// A counter's own resolution wins over the profile's (heap-profile censuses: every one counts).
BOOST_AUTO_TEST_CASE(a_counters_own_resolution_overrides_the_profiles) {
    OneCounter k(100);
    k.p.set_counter_resolution(k.c, Duration::from_nanos(0));
    for (int i = 0; i < 3; ++i) k.p.add_counter_sample(k.c, Timestamp::from_nanos(i * 10), 1);
    BOOST_TEST(k.rows().size() == 3u);
    OneCounter coarse(0);
    coarse.p.set_counter_resolution(coarse.c, Duration::from_nanos(100));
    for (int i = 0; i < 3; ++i) coarse.p.add_counter_sample(coarse.c, Timestamp::from_nanos(i * 10), 1);
    BOOST_TEST(text(coarse.rows()) == "20:3/0 ");
    BOOST_CHECK_THROW(k.p.set_counter_resolution(k.c, Duration::from_nanos(-1)), el2fx::Error);
}

BOOST_AUTO_TEST_SUITE_END()

// fxprof-demo: writes a small, representative profile with the fxprof library, for checking by
// hand in the real Firefox Profiler (/work/fxp/check.mjs). Not an eventlog conversion.
//
//   fxprof-demo OUT.json.gz     (OUT "-" writes to standard output)
#include <cstdio>
#include <exception>

#include "check/profile_check.hpp"
#include "fxprof/output_file.hpp"
#include "fxprof/profile.hpp"

using namespace el2fx::fxprof;
using el2fx::check::validate_profile_file;

namespace {

constexpr std::int64_t kMs = 1000000;

Timestamp ms(std::int64_t v) { return Timestamp::from_nanos(v * kMs); }

Profile build() {
    Profile p("fxprof demo");
    p.set_start_time(WallClock::from_unix_nanos(1767225600000LL * kMs));
    p.set_interval(Duration::from_millis(1));
    p.set_imported_from("fxprof-demo");
    p.set_arguments("demo +RTS -N2 -l");

    const CategoryHandle haskell = p.handle_for_category("Haskell", CategoryColor::yellow);
    const SubcategoryHandle pure = p.handle_for_subcategory(haskell, "Pure");
    const CategoryHandle gc = p.handle_for_category("GC", CategoryColor::orange);
    const CategoryHandle blocked = p.handle_for_category("Blocked", CategoryColor::lightblue);

    const ProcessHandle proc = p.add_process("demo", "4242", ms(0));
    const ThreadHandle main_thread = p.add_thread(proc, "Main", 1, ms(0), true);
    const ThreadHandle worker = p.add_thread(proc, "Worker \xff\xfe (bad UTF-8)", 2, ms(20));
    p.set_thread_end_time(worker, ms(180));
    p.set_process_end_time(proc, ms(200));

    const ResourceHandle pkg = p.handle_for_resource(p.handle_for_string("demo-0.1"),
                                                     ResourceType::library);
    const SourceHandle main_hs = p.handle_for_source(p.handle_for_string("src/Main.hs"));
    auto func = [&](const char* name, std::uint32_t line) {
        return p.handle_for_func(FuncInfo{.name = p.handle_for_string(name),
                                          .resource = pkg,
                                          .source = main_hs,
                                          .line = line});
    };
    const FrameHandle f_main = p.handle_for_frame({.func = func("main", 5), .category = haskell});
    const FrameHandle f_compute =
        p.handle_for_frame({.func = func("compute", 12), .category = pure, .line = 14});
    const FrameHandle f_fib = p.handle_for_frame({.func = func("fib", 20), .category = pure});
    const FrameHandle f_wait = p.handle_for_frame(
        {.func = func("takeMVar", 30), .category = SubcategoryHandle(blocked)});
    const StackHandle s_main = p.handle_for_stack(std::nullopt, f_main);
    const StackHandle s_compute = p.handle_for_stack(s_main, f_compute);
    const StackHandle s_fib = p.handle_for_stack(s_compute, f_fib);
    const StackHandle s_wait = p.handle_for_stack(s_main, f_wait);

    for (int t = 0; t < 200; ++t) {
        const bool in_gc = (t >= 50 && t < 60) || (t >= 120 && t < 126);
        const StackHandle s = t < 30 ? s_main : (t % 7 < 4 ? s_fib : s_compute);
        p.add_sample(main_thread, ms(t), s, CpuDelta::from_nanos(in_gc ? 200000 : 950000));
        if (t >= 20 && t < 180) {
            const bool waiting = t >= 90 && t < 140;
            p.add_sample(worker, ms(t), waiting ? s_wait : s_fib,
                         CpuDelta::from_nanos(waiting ? 0 : 800000), waiting ? 2 : 1);
        }
    }

    const MarkerSchemaHandle gc_schema = p.register_marker_schema(MarkerSchema{
        .name = "GC",
        .display = {DisplayLocation::marker_chart, DisplayLocation::marker_table,
                    DisplayLocation::timeline_overview, DisplayLocation::timeline_memory},
        .fields = {{"generation", "Generation", FieldFormat::integer},
                   {"copied", "Bytes copied", FieldFormat::bytes},
                   {"pause", "Pause", FieldFormat::duration},
                   {"reason", "Reason", FieldFormat::unique_string}},
        .tooltip_label = "GC gen {marker.data.generation}",
        .table_label = "GC gen {marker.data.generation}, copied {marker.data.copied}",
        .chart_label = "gen {marker.data.generation}",
        .description = "A garbage collection",
    });
    const MarkerSchemaHandle msg_schema = p.register_marker_schema(MarkerSchema{
        .name = "UserMessage",
        .display = {DisplayLocation::marker_chart, DisplayLocation::marker_table},
        .fields = {{"message", "Message", FieldFormat::string}},
        .tooltip_label = "{marker.data.message}",
        .table_label = "{marker.data.message}",
    });
    const StringHandle gc_name = p.handle_for_string("GC");
    const StringHandle heap_overflow = p.handle_for_string("heap overflow");
    p.add_marker(main_thread, MarkerTiming::interval(ms(50), ms(60)), gc_name, gc, gc_schema,
                 {1, 3500000, Duration::from_millis(10), heap_overflow});
    p.add_marker(main_thread, MarkerTiming::interval(ms(120), ms(126)), gc_name, gc, gc_schema,
                 {0, 120000, Duration::from_millis(6), heap_overflow});
    // One interning per statement: argument evaluation order is unspecified, and interning
    // order is string table order (byte-identical output across compilers).
    const StringHandle trace_event = p.handle_for_string("traceEvent");
    const StringHandle waiting = p.handle_for_string("waiting for results");
    p.add_marker(worker, MarkerTiming::instant(ms(90)), trace_event, haskell, msg_schema,
                 {waiting});
    const StringHandle blocked_name = p.handle_for_string("Blocked on MVar");
    p.add_marker(worker, MarkerTiming::interval(ms(90), ms(140)), blocked_name, blocked);

    const CounterHandle heap = p.add_counter(proc, "Heap size", "Memory", "Heap size (bytes)",
                                             CounterDisplay::memory("Heap size"));
    const CounterHandle alloc = p.add_counter(proc, "Allocation", "Allocation",
                                              "Bytes allocated", CounterDisplay::byte_rate("Allocation"));
    // A rate counter starts with a zero sample where counting starts: the profiler ignores
    // the first count, and the first increment needs a known start to become a rate.
    p.add_counter_sample(alloc, ms(0), 0);
    double level = 4e6;
    for (int t = 0; t <= 200; t += 5) {
        level += (t == 60 || t == 125) ? -2.5e6 : 3e5;
        p.add_counter_value(heap, ms(t), level, 1);
        if (t > 0) p.add_counter_sample(alloc, ms(t), 3e5 + 1000.0 * (t % 17));
    }

    const ExtraSectionHandle rts = p.add_extra_section("GHC RTS");
    p.add_extra_entry(rts, "RTS version", ExtraValue::text("GHC-9.6.4 rts_thr"));
    p.add_extra_entry(rts, "Bytes allocated", ExtraValue::bytes(123456789));
    p.add_extra_entry(rts, "GC time", ExtraValue::duration(Duration::from_millis(16)));
    p.add_extra_entry(rts, "Productivity", ExtraValue::percentage(0.92));
    return p;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: fxprof-demo OUT.json.gz\n");
        return 2;
    }
    try {
        const Profile p = build();
        const WriteStats stats = write_profile_gz(p, argv[1]);
        std::fprintf(stderr, "fxprof-demo: %llu bytes of JSON, %llu strings repaired\n",
                     static_cast<unsigned long long>(stats.json_bytes),
                     static_cast<unsigned long long>(stats.repaired_strings));
        if (std::string(argv[1]) != "-") {
            for (const auto& problem : validate_profile_file(argv[1]))
                std::fprintf(stderr, "fxprof-demo: problem: %s\n", problem.c_str());
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fxprof-demo: error: %s\n", e.what());
        return 1;
    }
    return 0;
}

// Helpers for the fxprof tests: parse JSON into a DOM, walk it, build the representative small
// profile (golden test, determinism, validator), and scratch directories.
#pragma once

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "fxprof/profile.hpp"
#include "fxprof/profile_writer.hpp"
#include "util/rapidjson.hpp"

namespace el2fx::fxprof::testing {

inline rapidjson::Document parse_json(const std::string& text) {
    rapidjson::Document doc;
    doc.Parse<rapidjson::kParseFullPrecisionFlag>(text.data(), text.size());
    if (doc.HasParseError())
        throw std::runtime_error("test: JSON parse error at " + std::to_string(doc.GetErrorOffset()));
    return doc;
}

// doc["a"]["b"][2]... with a clear failure when a step is missing.
inline const rapidjson::Value& at(const rapidjson::Value& v, const char* key) {
    if (!v.IsObject() || !v.HasMember(key)) throw std::runtime_error(std::string("test: no key ") + key);
    return v[key];
}
inline const rapidjson::Value& at(const rapidjson::Value& v, int i) {
    if (!v.IsArray() || i < 0 || rapidjson::SizeType(i) >= v.Size())
        throw std::runtime_error("test: no index " + std::to_string(i));
    return v[rapidjson::SizeType(i)];
}

inline std::vector<double> numbers(const rapidjson::Value& array) {
    std::vector<double> out;
    for (const auto& v : array.GetArray()) out.push_back(v.IsNull() ? -999 : v.GetDouble());
    return out;
}

inline std::string to_text(const rapidjson::Value& v) {
    rapidjson::StringBuffer buf;
    rapidjson::Writer<rapidjson::StringBuffer> w(buf);
    v.Accept(w);
    return buf.GetString();
}

constexpr std::int64_t kMs = 1000000;
inline Timestamp ms(std::int64_t v) { return Timestamp::from_nanos(v * kMs); }

// The representative small profile: one process, 2 threads, samples with CPU deltas and
// weights, interval and instant markers with schemas, a marker without data, two counters,
// meta.extra. Changing it means regenerating the golden file (EL2FX_UPDATE_GOLDEN=1).
inline Profile make_small_profile() {
    Profile p("small test profile");
    p.set_start_time(WallClock::from_unix_nanos(1767225600123456789LL));
    p.set_interval(Duration::from_micros(500));
    p.set_arguments("prog +RTS -l");
    p.set_imported_from("fxprof tests");
    p.set_logical_cpus(2);

    const CategoryHandle user = p.handle_for_category("User", CategoryColor::yellow);
    const SubcategoryHandle compute = p.handle_for_subcategory(user, "Compute");
    const CategoryHandle gc = p.handle_for_category("GC", CategoryColor::orange);

    const ProcessHandle proc = p.add_process("prog", "1234", ms(0));
    const ThreadHandle main_thread = p.add_thread(proc, "main", 1234, ms(0), true);
    const ThreadHandle worker = p.add_thread(proc, "worker", 1235, ms(1));
    p.set_thread_end_time(worker, ms(9));

    const ResourceHandle res = p.handle_for_resource(p.handle_for_string("prog"), ResourceType::library);
    const SourceHandle file = p.handle_for_source(p.handle_for_string("src/Main.hs"));
    const FuncHandle f_main =
        p.handle_for_func({.name = p.handle_for_string("main"), .resource = res, .source = file, .line = 3});
    const FuncHandle f_work =
        p.handle_for_func({.name = p.handle_for_string("work"), .resource = res, .source = file, .line = 10});
    const FuncHandle f_wait = p.handle_for_func({.name = p.handle_for_string("wait")});
    const FrameHandle fr_main = p.handle_for_frame({.func = f_main, .category = user});
    const FrameHandle fr_work = p.handle_for_frame({.func = f_work, .category = compute, .line = 12});
    const FrameHandle fr_wait = p.handle_for_frame({.func = f_wait});
    const StackHandle s_main = p.handle_for_stack(std::nullopt, fr_main);
    const StackHandle s_work = p.handle_for_stack(s_main, fr_work);
    const StackHandle s_wait = p.handle_for_stack(s_main, fr_wait);

    for (int i = 0; i < 6; ++i)
        p.add_sample(main_thread, Timestamp::from_nanos(i * 1500000), i < 2 ? s_main : s_work,
                     CpuDelta::from_nanos(i == 0 ? 0 : 1400000 - i * 1000));
    p.add_sample(worker, ms(2), s_work, CpuDelta::from_nanos(900000));
    p.add_sample(worker, ms(3), s_wait, CpuDelta::from_nanos(100000), 3);
    p.add_sample(worker, ms(6), std::nullopt, std::nullopt);

    const MarkerSchemaHandle gc_schema = p.register_marker_schema(MarkerSchema{
        .name = "GC",
        .display = {DisplayLocation::marker_chart, DisplayLocation::marker_table, DisplayLocation::timeline_overview},
        .fields = {{"gen", "Generation", FieldFormat::integer},
                   {"copied", "Copied", FieldFormat::bytes},
                   {"pause", "Pause", FieldFormat::duration},
                   {"reason", "Reason", FieldFormat::unique_string},
                   {"ratio", "Live ratio", FieldFormat::percentage}},
        .tooltip_label = "GC gen {marker.data.gen}",
        .table_label = "GC gen {marker.data.gen}",
        .chart_label = "gen {marker.data.gen}",
        .description = "Garbage collection",
        .graphs = {{"copied", MarkerGraphType::bar, GraphColor::orange}},
    });
    const MarkerSchemaHandle msg_schema = p.register_marker_schema(MarkerSchema{
        .name = "Message",
        .display = {DisplayLocation::marker_chart, DisplayLocation::marker_table},
        .fields = {{"text", "Text", FieldFormat::string}, {"at", "At", FieldFormat::time}},
        .tooltip_label = "{marker.data.text}",
    });
    // Strings are interned in statements of their own: the order of evaluation of function
    // arguments differs between compilers, and interning order is string table order.
    const StringHandle gc_name = p.handle_for_string("GC");
    const StringHandle reason = p.handle_for_string("heap overflow");
    p.add_marker(main_thread, MarkerTiming::interval(ms(3), Timestamp::from_nanos(4250000)), gc_name, gc, gc_schema,
                 {1, 4096, Duration::from_nanos(1250000), reason, 0.25});
    const StringHandle trace_event = p.handle_for_string("traceEvent");
    const StringHandle hello = p.handle_for_string("hello \"world\"");
    p.add_marker(worker, MarkerTiming::instant(Timestamp::from_nanos(2500001)), trace_event, user, msg_schema,
                 {hello, Timestamp::from_nanos(2500001)});
    const StringHandle blocked = p.handle_for_string("Blocked");
    p.add_marker(worker, MarkerTiming::interval(ms(3), ms(6)), blocked, Profile::default_category());

    const CounterHandle heap = p.add_counter(proc, "Heap", "Memory", "heap size", CounterDisplay::memory("Heap"));
    p.add_counter_value(heap, ms(0), 1000, 1);
    p.add_counter_value(heap, ms(2), 3000, 2);
    p.add_counter_value(heap, ms(4), 2500);
    const CounterHandle alloc =
        p.add_counter(proc, "Allocated", "Allocation", "bytes allocated", CounterDisplay::byte_rate("Allocated"));
    p.add_counter_sample(alloc, ms(1), 512.5);
    p.add_counter_sample(alloc, ms(5), 1024);

    const ExtraSectionHandle rts = p.add_extra_section("RTS");
    p.add_extra_entry(rts, "Version", ExtraValue::text("GHC 9.6"));
    p.add_extra_entry(rts, "Allocated", ExtraValue::bytes(1536));
    p.add_extra_entry(rts, "GC time", ExtraValue::duration(Duration::from_micros(1250)));
    return p;
}

// A fresh empty directory under $TMPDIR (or /tmp), removed with its files by the destructor.
class ScratchDir {
public:
    ScratchDir() {
        const char* tmp = std::getenv("TMPDIR");
        std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/fxprof-test-XXXXXX";
        if (!::mkdtemp(templ.data())) throw std::runtime_error("test: mkdtemp failed");
        path_ = templ;
    }
    ~ScratchDir() {
        for (const auto& e : entries()) ::unlink((path_ + "/" + e).c_str());
        ::rmdir(path_.c_str());
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;

    const std::string& path() const { return path_; }
    std::string file(const std::string& name) const { return path_ + "/" + name; }

    // Names of the entries, sorted, without . and ..
    std::vector<std::string> entries() const {
        std::vector<std::string> out;
        if (DIR* d = ::opendir(path_.c_str())) {
            while (const dirent* e = ::readdir(d)) {
                const std::string name = e->d_name;
                if (name != "." && name != "..") out.push_back(name);
            }
            ::closedir(d);
        }
        std::sort(out.begin(), out.end());
        return out;
    }

private:
    std::string path_;
};

inline std::string read_file(const std::string& path) {
    std::string out;
    if (FILE* f = std::fopen(path.c_str(), "rb")) {
        char buf[65536];
        std::size_t n;
        while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
        std::fclose(f);
    }
    return out;
}

}  // namespace el2fx::fxprof::testing

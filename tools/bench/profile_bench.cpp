// Profile builder and writer benchmark: adds a large synthetic profile (by default 5 M samples
// and 2 M markers with fields over 70 threads, 1 M counter samples) and writes it gzipped, so
// that time and peak RSS (`/usr/bin/time -f "%e s %M KB"`) show what the tables cost. Not a test.
//
//   profile_bench [--samples N] [--markers N] [--counter-samples N] [--threads N]
//                 [--disorder N] [--level L] [--budget BYTES] [OUT]
//
// --disorder N: every Nth sample is 0-5 ms in the past (a new sorted run; 0: none).
// --level L: gzip level (0: plain JSON). OUT defaults to /dev/null.
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "fxprof/byte_sink.hpp"
#include "fxprof/gzip.hpp"
#include "fxprof/profile.hpp"
#include "fxprof/profile_writer.hpp"
#include "util/error.hpp"

#if __has_include("fxprof/spill_store.hpp")
#define PROFILE_BENCH_SPILL 1
#endif

using namespace el2fx::fxprof;

namespace {

struct Options {
    long samples = 5'000'000;
    long markers = 2'000'000;
    long counter_samples = 1'000'000;
    long threads = 70;
    long disorder = 0;
    int level = GzipSink::kDefaultLevel;
    long budget = -1;
    std::string out = "/dev/null";
};

// ("a" + std::to_string(i) trips GCC 12's -Wrestrict false positive at -O3.)
std::string numbered(const char* prefix, long i) {
    std::string s(prefix);
    s += std::to_string(i);
    return s;
}

double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// Counts bytes on their way to another sink.
class CountingSink final : public ByteSink {
public:
    explicit CountingSink(ByteSink& next) : next_(next) {}
    void write(const char* data, std::size_t size) override {
        bytes += size;
        next_.write(data, size);
    }
    std::uint64_t bytes = 0;

private:
    ByteSink& next_;
};

void build(Profile& p, const Options& o) {
    std::mt19937_64 rng(1);
    auto rand = [&](std::uint64_t n) { return static_cast<std::int64_t>(rng() % n); };
    p.set_interval(Duration::from_millis(1));
    const CategoryHandle run = p.handle_for_category("Running", CategoryColor::green);
    const CategoryHandle blocked = p.handle_for_category("Blocked", CategoryColor::lightblue);
    const ProcessHandle proc = p.add_process("bench", "1", Timestamp{});
    std::vector<ThreadHandle> threads;
    for (long i = 0; i < o.threads; ++i)
        threads.push_back(p.add_thread(proc, numbered("thread ", i), i, Timestamp{}, i == 0));
    std::vector<StackHandle> stacks;
    for (int i = 0; i < 400; ++i) {
        const FuncHandle f = p.handle_for_func({.name = p.handle_for_string(numbered("f", i))});
        const FrameHandle fr = p.handle_for_frame({.func = f, .category = i % 3 ? run : blocked});
        stacks.push_back(p.handle_for_stack(i < 8 ? std::nullopt : std::optional(stacks[static_cast<std::size_t>(i / 8)]), fr));
    }
    const MarkerSchemaHandle span = p.register_marker_schema(MarkerSchema{
        .name = "Span",
        .display = {DisplayLocation::marker_chart, DisplayLocation::marker_table},
        .fields = {{"cap", "Capability", FieldFormat::integer},
                   {"reason", "Reason", FieldFormat::unique_string},
                   {"cpu", "CPU", FieldFormat::duration}},
    });
    std::vector<StringHandle> names;
    for (int i = 0; i < 30; ++i) names.push_back(p.handle_for_string(numbered("span ", i)));

    const long nt = o.threads;
    std::vector<std::int64_t> now(static_cast<std::size_t>(nt), 0);
    for (long i = 0; i < o.samples; ++i) {
        const auto t = static_cast<std::size_t>(i % nt);
        now[t] += 1'000'000;
        std::int64_t time = now[t];
        if (o.disorder > 0 && i / nt % o.disorder == o.disorder - 1) time -= rand(5'000'000);
        const bool off_cpu = rand(4) == 0;
        p.add_sample(threads[t], Timestamp::from_nanos(time),
                     stacks[static_cast<std::size_t>(rand(stacks.size()))],
                     off_cpu ? std::optional<CpuDelta>() : CpuDelta::from_nanos(rand(1'000'000)),
                     off_cpu ? 1 + rand(20) : 1);
    }
    std::vector<std::int64_t> mnow(static_cast<std::size_t>(nt), 0);
    for (long i = 0; i < o.markers; ++i) {
        const auto t = static_cast<std::size_t>(i % nt);
        const std::int64_t start = mnow[t] + rand(1'000'000);
        mnow[t] = start + rand(3'000'000);
        const StringHandle name = names[static_cast<std::size_t>(rand(names.size()))];
        p.add_marker(threads[t], MarkerTiming::interval(Timestamp::from_nanos(start), Timestamp::from_nanos(mnow[t])),
                     name, run, span, {rand(4), name, Duration::from_nanos(rand(3'000'000))});
    }
    std::vector<CounterHandle> counters;
    for (int i = 0; i < 10; ++i)
        counters.push_back(p.add_counter(proc, numbered("counter ", i), "Memory", "",
                                         i % 2 ? CounterDisplay::memory("c") : CounterDisplay::byte_rate("c")));
    std::vector<double> level(counters.size(), 0);
    for (long i = 0; i < o.counter_samples; ++i) {
        const auto c = static_cast<std::size_t>(i % static_cast<long>(counters.size()));
        const Timestamp time = Timestamp::from_nanos(i / static_cast<long>(counters.size()) * 50'000);
        if (c % 2) {
            level[c] += static_cast<double>(rand(1 << 20)) - (1 << 19);
            p.add_counter_value(counters[c], time, level[c], static_cast<std::uint32_t>(rand(100)));
        } else {
            p.add_counter_sample(counters[c], time, static_cast<double>(rand(1 << 16)));
        }
    }
}

bool number_arg(int& i, int argc, char** argv, const char* name, long& out) {
    if (std::strcmp(argv[i], name) != 0) return false;
    if (i + 1 >= argc) throw el2fx::Error(std::string(name) + " needs a value");
    out = std::atol(argv[++i]);
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        Options o;
        long level = o.level;
        for (int i = 1; i < argc; ++i) {
            if (number_arg(i, argc, argv, "--samples", o.samples) ||
                number_arg(i, argc, argv, "--markers", o.markers) ||
                number_arg(i, argc, argv, "--counter-samples", o.counter_samples) ||
                number_arg(i, argc, argv, "--threads", o.threads) ||
                number_arg(i, argc, argv, "--disorder", o.disorder) ||
                number_arg(i, argc, argv, "--level", level) ||
                number_arg(i, argc, argv, "--budget", o.budget))
                continue;
            if (argv[i][0] == '-' && argv[i][1]) throw el2fx::Error(std::string("unknown option ") + argv[i]);
            o.out = argv[i];
        }
        if (o.threads < 1) throw el2fx::Error("--threads must be at least 1");
        o.level = static_cast<int>(level);

        const auto t0 = std::chrono::steady_clock::now();
        Profile p("profile bench");
#ifdef PROFILE_BENCH_SPILL
        if (o.budget >= 0) p.set_table_memory_budget(static_cast<std::size_t>(o.budget));
#endif
        build(p, o);
        const double build_s = seconds_since(t0);

        const auto t1 = std::chrono::steady_clock::now();
        const int fd = ::open(o.out.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd < 0) throw el2fx::Error("cannot open " + o.out + ": " + std::strerror(errno));
        FdSink file(fd, o.out);
        CountingSink counted(file);
        WriteStats stats;
        if (o.level > 0) {
            GzipSink gz(counted, o.level);
            stats = write_profile_json(p, gz);
            gz.finish();
        } else {
            stats = write_profile_json(p, counted);
        }
        if (::close(fd) != 0) throw el2fx::Error("cannot close " + o.out + ": " + std::strerror(errno));
        const double write_s = seconds_since(t1);

        std::printf("samples=%ld markers=%ld counter_samples=%ld threads=%ld disorder=%ld level=%d\n",
                    o.samples, o.markers, o.counter_samples, o.threads, o.disorder, o.level);
        std::printf("build=%.2fs write=%.2fs json=%.1fMB out=%.1fMB\n", build_s, write_s,
                    static_cast<double>(stats.json_bytes) / 1e6, static_cast<double>(counted.bytes) / 1e6);
#ifdef PROFILE_BENCH_SPILL
        const SpillStats& s = p.table_stats();
        std::printf("tables: peak in memory %.1fMB, %llu chunks (%.1fMB) spilled, temporary file %.1fMB\n",
                    static_cast<double>(s.peak_memory_bytes) / 1e6,
                    static_cast<unsigned long long>(s.spilled_chunks),
                    static_cast<double>(s.spilled_bytes) / 1e6, static_cast<double>(s.file_bytes) / 1e6);
#endif
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "profile_bench: %s\n", e.what());
        return 1;
    }
}

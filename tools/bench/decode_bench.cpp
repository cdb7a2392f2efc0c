// Decode-only throughput: every event framed and decoded into its typed payload,
// counted, nothing printed. `--ordered` measures the time-ordered reader instead
// (index pass + k-way merge), `--prefetched` the same through EventPrefetcher (the merge on a
// second thread), `--records` the merge alone (framed records, not decoded; the index's time
// printed apart). Used by tools/bench; not installed.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

#include "eventlog/byte_source.hpp"
#include "eventlog/stream.hpp"
#include "eventlog/event_prefetcher.hpp"
#include "eventlog/time_ordered_reader.hpp"
#include "util/error.hpp"

namespace {

class CountingSink : public el2fx::eventlog::EventSink {
public:
    void on_event(const el2fx::eventlog::Event& e) override {
        ++events;
        checksum += e.time ^ e.payload.index();  // keeps the decode from being optimised away
    }
    std::uint64_t events = 0, checksum = 0;
};

}  // namespace

int main(int argc, char** argv) {
    const bool prefetched = argc > 2 && !std::strcmp(argv[1], "--prefetched");
    const bool records = argc > 2 && !std::strcmp(argv[1], "--records");
    const bool ordered = prefetched || records || (argc > 2 && !std::strcmp(argv[1], "--ordered"));
    if (argc < 2 || (argc > 2 && !ordered)) {
        std::fputs("usage: decode_bench [--ordered | --prefetched | --records] FILE\n", stderr);
        return 2;
    }
    std::string path = argv[argc - 1];
    try {
        auto start = std::chrono::steady_clock::now();
        el2fx::eventlog::InputFile input(path);
        el2fx::Diagnostics diagnostics;
        std::uint64_t events = 0, bytes = 0, checksum = 0;
        if (prefetched) {
            el2fx::eventlog::TimeOrderedReader reader(input, diagnostics);
            el2fx::eventlog::EventPrefetcher prefetcher(reader, diagnostics);
            while (const auto* e = prefetcher.next()) {
                ++events;
                checksum += e->time;
            }
            bytes = reader.stream_end().bytes;
        } else if (records) {
            // The merge alone, framed records not decoded (what the prefetcher's worker does
            // but copying them); the index's time is printed apart.
            el2fx::eventlog::TimeOrderedReader reader(input, diagnostics);
            const double index = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            std::fprintf(stderr, "index %.3f s\n", index);
            while (const auto* r = reader.next_record()) {
                ++events;
                checksum += r->time;
            }
            bytes = reader.stream_end().bytes;
        } else if (ordered) {
            el2fx::eventlog::TimeOrderedReader reader(input, diagnostics);
            while (const auto* e = reader.next()) {
                ++events;
                checksum += e->time;
            }
            bytes = reader.stream_end().bytes;
        } else {
            CountingSink sink;
            bytes = el2fx::eventlog::decode_stream(input, sink, diagnostics).bytes;
            events = sink.events;
            checksum = sink.checksum;
        }
        double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::printf("%s bytes=%llu events=%llu seconds=%.3f MB/s=%.0f Mevents/s=%.1f checksum=%llu\n",
                    prefetched ? "prefetched" : records ? "records" : ordered ? "ordered" : "decode", static_cast<unsigned long long>(bytes),
                    static_cast<unsigned long long>(events), seconds, bytes / seconds / 1e6, events / seconds / 1e6,
                    static_cast<unsigned long long>(checksum % 1000));
        return 0;
    } catch (const el2fx::Error& e) {
        std::fprintf(stderr, "decode_bench: %s\n", e.what());
        return 1;
    }
}

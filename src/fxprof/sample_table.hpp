// A thread's samples (threads[].samples), kept as compact records in the profile's SpillStore
// (bounded memory). Samples may be added out of time order; readers (the writer) see them in a
// stable sort by time (run_table.hpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "fxprof/handles.hpp"
#include "fxprof/run_table.hpp"
#include "fxprof/units.hpp"

namespace el2fx::fxprof {

struct SampleRow {
    std::int64_t time = 0;        // ns
    std::int32_t stack = -1;      // SampleTable::kNoStack: null
    std::int64_t cpu_delta = -1;  // ns; SampleTable::kNoCpuDelta: null
    std::int64_t weight = 1;
};

// time: zigzag delta from the run's previous row; stack + 1 and cpu_delta + 1 (0: null);
// weight zigzag. Typically 6 to 10 bytes.
struct SampleCodec {
    using Row = SampleRow;
    struct State {
        std::int64_t time = 0;
    };
    static constexpr std::size_t kMaxRecord = 4 * spill::kMaxVarint;
    static std::uint8_t* encode(std::uint8_t* p, const Row& r, State& s) {
        spill::put_svarint(
            p, static_cast<std::int64_t>(static_cast<std::uint64_t>(r.time) - static_cast<std::uint64_t>(s.time)));
        s.time = r.time;
        spill::put_uvarint(p, static_cast<std::uint32_t>(r.stack) + std::uint64_t{1});
        spill::put_uvarint(p, static_cast<std::uint64_t>(r.cpu_delta) + 1);
        spill::put_svarint(p, r.weight);
        return p;
    }
    static void decode(const std::uint8_t*& p, Row& r, State& s) {
        s.time = static_cast<std::int64_t>(static_cast<std::uint64_t>(s.time) +
                                           static_cast<std::uint64_t>(spill::get_svarint(p)));
        r.time = s.time;
        r.stack = static_cast<std::int32_t>(static_cast<std::uint32_t>(spill::get_uvarint(p) - 1));
        r.cpu_delta = static_cast<std::int64_t>(spill::get_uvarint(p) - 1);
        r.weight = spill::get_svarint(p);
    }
    static std::int64_t time(const Row& r) { return r.time; }
};

class SampleTable {
public:
    static constexpr std::int32_t kNoStack = -1;
    static constexpr std::int64_t kNoCpuDelta = -1;

    void attach(SpillStore* store) { rows_.attach(store); }

    void add(Timestamp time, std::optional<StackHandle> stack, std::optional<CpuDelta> cpu, std::int64_t weight) {
        rows_.append(SampleRow{time.nanos(), stack ? static_cast<std::int32_t>(stack->index()) : kNoStack,
                               cpu ? cpu->nanos() : kNoCpuDelta, weight});
        if (cpu) has_cpu_delta_ = true;
        if (weight != 1) all_weights_one_ = false;
    }

    std::size_t size() const { return static_cast<std::size_t>(rows_.size()); }
    bool sorted() const { return rows_.run_count() <= 1; }
    std::size_t run_count() const { return rows_.run_count(); }
    bool has_cpu_delta() const { return has_cpu_delta_; }
    bool all_weights_one() const { return all_weights_one_; }

    // f(const SampleRow&) for every sample in time order (stable).
    template <class F>
    void for_each(F&& f) const {
        rows_.for_each(f);
    }

    // Samples of one time and stack become one of their summed weight (and CPU time), those of
    // one time in stack order: the table no longer depends on the order the samples came in,
    // only on which were added (the call tree and the activity graph are the same).
    void sum_same_instants() {
        rows_.rebuild([this](const RunTable<SampleCodec>& old, RunTable<SampleCodec>& fresh) {
            std::vector<SampleRow> instant;  // the rows of one time
            const auto drain = [&] {
                std::stable_sort(instant.begin(), instant.end(),
                                 [](const SampleRow& a, const SampleRow& b) { return a.stack < b.stack; });
                for (std::size_t i = 0; i < instant.size();) {
                    SampleRow sum = instant[i];
                    for (++i; i < instant.size() && instant[i].stack == sum.stack; ++i) {
                        sum.weight += instant[i].weight;
                        if (instant[i].cpu_delta != kNoCpuDelta)
                            sum.cpu_delta = (sum.cpu_delta == kNoCpuDelta ? 0 : sum.cpu_delta) + instant[i].cpu_delta;
                    }
                    if (sum.weight != 1) all_weights_one_ = false;
                    fresh.append(sum);
                }
                instant.clear();
            };
            old.for_each([&](const SampleRow& r) {
                if (!instant.empty() && instant.front().time != r.time) drain();
                instant.push_back(r);
            });
            drain();
        });
    }

private:
    RunTable<SampleCodec> rows_;
    bool has_cpu_delta_ = false;
    bool all_weights_one_ = true;
};

}  // namespace el2fx::fxprof

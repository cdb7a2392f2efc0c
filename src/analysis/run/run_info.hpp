// Facts about the run that the global events tell: program, RTS, process, clock.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "eventlog/counted_records.hpp"
#include "eventlog/event.hpp"
#include "util/bit_row.hpp"

namespace el2fx::run {

struct RunInfo {
    std::string rts_identifier;     // "GHC-9.0.2 rts_thr_l"
    std::vector<std::string> args;  // argv, program first
    std::vector<std::string> env;   // collected only when asked for (privacy)
    std::optional<std::uint32_t> pid, ppid;
    // WALL_CLOCK_TIME: the Unix time taken at `wall_clock_event_time` (ns since RTS start).
    std::optional<std::uint64_t> wall_clock_unix_ns;
    std::uint64_t wall_clock_event_time = 0;
    std::optional<std::uint16_t> generations;
    std::optional<std::uint64_t> max_heap_size, alloc_area_size, mblock_size, block_size;
    std::uint32_t capabilities = 0;  // distinct capabilities created or seen
    std::uint64_t first_time = 0, last_time = 0;
    std::uint64_t events = 0;
    std::vector<std::uint64_t> events_by_tag;  // events of each type, by tag (convert --stats)

    // "9.0.2" from the RTS identifier, or empty.
    std::string ghc_version() const;
    // "thr_l" style: the RTS flavour after "rts_", or empty.
    std::string rts_way() const;
    // The program's name: argv[0]'s file name, or empty.
    std::string program_name() const;
};

class RunInfoCollector {
public:
    explicit RunInfoCollector(bool collect_env) : collect_env_(collect_env) {}
    // Every event: count() + see_capability() + note().
    void handle(const eventlog::Event& event) {
        count(event);
        if (event.cap) see_capability(*event.cap);
        note(event);
    }
    RunInfo info() const;

    // The census calls the three parts apart, so that an event pays only for what it tells.
    // Every event is counted; inline, as the census has tens of millions of them.
    void count(const eventlog::Event& event) {
        if (info_.events++ == 0) info_.first_time = event.time;
        if (event.tag < kFewTags) {
            ++few_by_tag_[event.tag];
        } else {
            count_rare_tag(event.tag);
        }
        if (event.time > info_.last_time) info_.last_time = event.time;
    }
    // The latest event time so far (the census's clock).
    std::uint64_t last_time() const { return info_.last_time; }
    // Events counted elsewhere (by the census's reader: never the first event), and the clock
    // as they moved it.
    void count(const eventlog::CountedRecords& counted);
    // A capability an event names (again or for the first time).
    void see_capability(eventlog::CapNo cap) {
        if (cap < seen_caps_.size() && seen_caps_.test(cap)) return;
        if (cap >= seen_caps_.size()) seen_caps_.resize(cap + 1u);
        seen_caps_.set(cap);
        ++info_.capabilities;
    }
    // The facts an event tells about the run: a handful of tags, most of them once per log.
    // Any other event: nothing (tells() is false for it).
    void note(const eventlog::Event& event);
    static bool tells(std::uint16_t tag);

private:
    // Every tag GHC writes is below 256 (the decoder's table): those are counted in a fixed
    // table, without a size check; others (unknown events) in rare_by_tag_, from kFewTags on.
    static constexpr std::size_t kFewTags = 256;
    void count_rare_tag(std::uint16_t tag);

    bool collect_env_;
    RunInfo info_;  // but events_by_tag, which info() makes
    std::array<std::uint64_t, kFewTags> few_by_tag_{};
    std::vector<std::uint64_t> rare_by_tag_;
    util::BitRow seen_caps_;  // by capability: every event asks
};

}  // namespace el2fx::run

// Facts about the run that the global events tell: program, RTS, process, clock.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "eventlog/event.hpp"

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
    void handle(const eventlog::Event& event);
    const RunInfo& info() const { return info_; }

private:
    bool collect_env_;
    RunInfo info_;
    std::vector<bool> seen_caps_;
};

}  // namespace el2fx::run

// The time the runtime spends on heap-profile censuses (-h*), which +RTS -s reports as PROF
// and leaves out of GC. A census runs inside a collection, on the initiating capability,
// after that capability's last GC_DONE; its HEAP_PROF_SAMPLE_BEGIN..END are written when it
// is over. The eventlog does not mark the census's start, so each one is measured from the
// collection's latest GC_DONE to its HEAP_PROF_SAMPLE_END: an upper bound, which includes the
// collection's own bookkeeping after its parallel part (on the fixture census-hy, about a
// tenth more than the runtime reports: tests/analysis/gc/heap_census_test.cpp).
#pragma once

#include <cstdint>
#include <optional>

#include "eventlog/event.hpp"
#include "eventlog/event_types.hpp"

namespace el2fx::gc {

class HeapCensusTimer {
public:
    //   GC_START                   → a collection begins: no GC_DONE in it yet
    //   GC_DONE                    → the census, if one comes, starts no earlier
    //   HEAP_PROF_SAMPLE_BEGIN     → a census was taken: measured from the latest GC_DONE, or
    //                                unmeasured without one (a sequential or non-threaded GC)
    //   HEAP_PROF_SAMPLE_END       → the measured census ends
    void handle(const eventlog::Event& event);
    // The tags handle() acts on.
    static bool concerns(std::uint16_t tag) {
        return tag == eventlog::StartGC::tag || tag == eventlog::GCDone::tag ||
               tag == eventlog::HeapProfSampleBegin::tag || tag == eventlog::HeapProfSampleEnd::tag;
    }

    std::uint64_t total_ns() const { return total_; }
    std::uint64_t measured() const { return measured_; }
    std::uint64_t unmeasured() const { return unmeasured_; }

private:
    std::optional<std::uint64_t> last_done_;     // in the collection under way
    std::optional<std::uint64_t> census_start_;  // between a sample's BEGIN and END
    std::uint64_t total_ = 0, measured_ = 0, unmeasured_ = 0;
};

}  // namespace el2fx::gc

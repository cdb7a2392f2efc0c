// What a capability or a Haskell thread is doing over a stretch of time. These
// are the payloads of spans and the keys of samples; the profile builder turns
// them into markers and stacks. Times everywhere in the analyses are
// nanoseconds since the RTS started, as in eventlog::Event::time.
#pragma once

#include <cstddef>
#include <cstdint>

#include "eventlog/event_types.hpp"

namespace el2fx::analysis {

enum class CapabilityState : std::uint8_t { idle, gc, mutator };

// Where a capability is within a collection, from its GC_WORK / GC_IDLE / GC_DONE events and
// the heap census: only samples carry it (a capability that merely waits in a parallel GC, its
// OS thread descheduled, is not collecting); the seed's GC span is one span whatever the phase.
enum class GcPhase : std::uint8_t {
    collecting,  // from GC_START, and whenever no phase event says otherwise
    working,     // GC_WORK: copying and scanning
    idle,        // GC_IDLE: waiting for other GC threads
    done,        // GC_DONE: its part is over, waiting to be released
    census,      // the initiating capability takes a heap-profile census (-h*)
};
inline constexpr std::size_t kGcPhases = 5;

// Eight bytes, the small fields first: made in a register, not in memory
// field by field and read back whole (a stall at each capability event).
struct CapabilityActivity {
    CapabilityState state = CapabilityState::idle;
    GcPhase phase = GcPhase::collecting;  // for gc, in samples only
    eventlog::ThreadId thread = 0;        // the Haskell thread it runs, for mutator

    static constexpr CapabilityActivity idle() { return {CapabilityState::idle, GcPhase::collecting, 0}; }
    static constexpr CapabilityActivity gc(GcPhase phase = GcPhase::collecting) {
        return {CapabilityState::gc, phase, 0};
    }
    static constexpr CapabilityActivity mutator(eventlog::ThreadId t) {
        return {CapabilityState::mutator, GcPhase::collecting, t};
    }
    bool operator==(const CapabilityActivity&) const = default;
};
static_assert(sizeof(CapabilityActivity) == 8);

// A capability is on-CPU while it collects garbage or runs Haskell code.
constexpr bool is_on_cpu(const CapabilityActivity& a) { return a.state != CapabilityState::idle; }

// Why a thread stopped: the STOP_THREAD status (eventlog-facts §4.3) and its info field.
struct BlockReason {
    std::uint16_t status = 0;
    eventlog::ThreadId blocker = 0;  // owner of the black hole for BlockedOnBlackHole; 0 if unknown
    bool operator==(const BlockReason&) const = default;
};

enum class ThreadState : std::uint8_t { running, blocked };

struct ThreadActivity {
    ThreadState state = ThreadState::running;
    eventlog::CapNo cap = 0;  // where it runs, for running
    BlockReason reason;       // why it does not, for blocked

    static constexpr ThreadActivity running(eventlog::CapNo cap) { return {ThreadState::running, cap, {}}; }
    static constexpr ThreadActivity blocked(BlockReason reason) { return {ThreadState::blocked, 0, reason}; }
    bool operator==(const ThreadActivity&) const = default;
};

// A Haskell thread is on-CPU while it runs; a blocked one is off-CPU.
constexpr bool is_on_cpu(const ThreadActivity& a) { return a.state == ThreadState::running; }

}  // namespace el2fx::analysis

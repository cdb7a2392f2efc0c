// A part of a pass that runs on the EventPrefetcher's worker, beside the merge, where the
// consumer's thread is the bound and the worker's has time to spare. It is given the events
// of its tags in time order, framed, and decodes on the worker the payloads it reads (as the
// event table defines them: no variant to fill), and leaves what it finds in the output of
// the batch the event goes into; the consumer takes each output back at the event that left
// it (EventPrefetcher::deliver_worker_outputs()), so what a part finds reaches the consumer's
// parts in the same order as if it ran there. Only what is far smaller than the work it saves
// should cross the cores (src/README.md, Performance notes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include <optional>

#include "eventlog/event_types.hpp"
#include "eventlog/payload_decoder.hpp"
#include "eventlog/skip_before.hpp"

namespace el2fx::eventlog {

// An event of a WorkerPart's tags as the worker frames it; its bytes are valid during handle().
struct WorkerEvent {
    std::uint64_t time = 0;
    std::uint16_t tag = 0;
    std::optional<CapNo> cap;  // the block's capability; none in the global block
    const std::uint8_t* payload = nullptr;
    std::size_t payload_size = 0;

    // Its payload as T, where it is one (false for another tag, or a payload too short for T's
    // fields: the event decoded elsewhere is then an UnknownEvent).
    template <typename T>
    bool decode(T& out) const {
        return tag == T::tag && decode_as<T>(payload, payload_size, out);
    }
};

// What a part left in one batch; made by the part, cleared when the batch is filled again.
class WorkerOutput {
public:
    virtual ~WorkerOutput() = default;
    virtual void clear() = 0;
};

// The time each side took for its latest batch, waits left out, and the batch's events
// (0 before the first).
struct Pace {
    std::uint64_t worker_ns = 0, worker_events = 0;
    std::uint64_t consumer_ns = 0, consumer_events = 0;
};

class WorkerPart {
public:
    virtual ~WorkerPart() = default;
    // Asked once, before the worker starts: the tags it is given.
    virtual const TagSet& tags() const = 0;
    // One output per batch, made before the worker starts.
    virtual std::unique_ptr<WorkerOutput> make_output() const = 0;

    // On the worker, before a batch's first event: how fast each side went through its latest
    // batch (a part that can move work between the sides may).
    virtual void batch_begins(const Pace& /*pace*/) {}
    // On the worker. An event of its tags, the `index`th of the batch whose output is `out`;
    // `now`, the latest time of every event so far (this one's included). Whether `out` has
    // room for more: if not, the batch ends with this event (what crosses the cores stays
    // bounded, whatever one event makes the part leave).
    virtual bool handle(const WorkerEvent& event, std::uint64_t now, std::size_t index, WorkerOutput& out) = 0;
    // At the reader's end (not at its error), after the last event: `index` is the number of
    // events in the batch, `now` the latest time of all.
    virtual void finish(std::uint64_t now, std::size_t index, WorkerOutput& out) = 0;

    // On the consumer. What `out` holds for the events before `end` (a batch's index; past
    // its events: finish()'s too), not delivered yet; `out` is the output of the batch the
    // consumer reads, `from_start` where it was not delivered from before.
    // Returns the index of the first event whose outputs it has not delivered (or past every
    // event, where none are left): the consumer asks again once it took that event.
    virtual std::size_t deliver(const WorkerOutput& out, std::size_t end, bool from_start) = 0;
};

}  // namespace el2fx::eventlog

// Reads a TimeOrderedReader on a second thread, a few batches ahead of the consumer: the
// k-way merge runs beside the analyses instead of before each event. The
// consumer sees exactly what TimeOrderedReader::next() would give, in the same order: the
// same events, the reader's diagnostics counted just before the event they came with, and
// the reader's error (a corrupt block) thrown after the last event before it.
//
// The worker frames the records in time order and copies them into batches; the
// consumer decodes them (an event is valid until the next call, as with the reader).
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <thread>
#include <vector>

#include "eventlog/counted_records.hpp"
#include "eventlog/event.hpp"
#include "eventlog/record_framing.hpp"
#include "eventlog/skip_before.hpp"
#include "eventlog/time_ordered_reader.hpp"
#include "eventlog/worker_part.hpp"
#include "util/diagnostics.hpp"

namespace el2fx::eventlog {

// Two threads write to it and to the reader: each part gets cache lines of its own
// (false sharing with a neighbour on the stack cost more than the reading saved).
// Two lines, as Intel fetches lines in pairs.
constexpr std::size_t kSeparateCacheLines = 128;

class alignas(kSeparateCacheLines) EventPrefetcher {
public:
    // Large batches: each hand-over may wake the other side, a system call that costs far more
    // in a virtual machine than on bare metal. The bytes are touched only as far as records
    // fill them, so memory follows the records' sizes.
    static constexpr std::size_t kBatchEvents = 32768;
    static constexpr std::size_t kBatchBytes = 3072 << 10;  // > any record (16-bit payload size)

    // Restarts `reader` and reads it on a worker thread; its diagnostics go to `diagnostics`
    // (on this thread, as the events that caused them come out).
    EventPrefetcher(TimeOrderedReader& reader, Diagnostics& diagnostics, std::size_t batch_events = kBatchEvents);
    // The same, from `from` on (TimeOrderedReader::restart); with `part`, which then runs on
    // the worker (worker_part.hpp) and must outlive the prefetcher.
    EventPrefetcher(TimeOrderedReader& reader, Diagnostics& diagnostics, std::optional<OrderKey> from,
                    WorkerPart* part = nullptr, std::size_t batch_events = kBatchEvents);
    // The same, from the start, but the reader counts the records of `count_only`'s tags
    // instead of giving them (TimeOrderedReader::count_only(): a log in order only);
    // counted() tells what it counted.
    struct CountOnly {
        const TagSet* tags;
        std::vector<RepeatFilter*> repeats = {};  // TimeOrderedReader::count_only()
    };
    EventPrefetcher(TimeOrderedReader& reader, Diagnostics& diagnostics, CountOnly count_only,
                    std::size_t batch_events = kBatchEvents);
    // The same, but the worker also takes the records `other` gives (its own reader's, of other
    // ranges of the same log, on its own worker) and merges them with its reader's by (time,
    // offset): it is `other`'s consumer, and `other` must outlive it. Its diagnostics go to
    // `other`'s consumer's Diagnostics, counted on this worker (SplitPrefetcher).
    EventPrefetcher(TimeOrderedReader& reader, Diagnostics& diagnostics, CountOnly count_only, EventPrefetcher& other,
                    std::size_t batch_events = kBatchEvents);
    // Stops the worker, whether or not every event was taken; then writes the CPU seconds the
    // worker used (the merge) to `*seconds`, if report_worker_cpu() asked for it.
    ~EventPrefetcher();
    void report_worker_cpu(double* seconds) { worker_cpu_to_ = seconds; }
    EventPrefetcher(const EventPrefetcher&) = delete;
    EventPrefetcher& operator=(const EventPrefetcher&) = delete;

    // From now on, the records of `tags` come out undecoded: their payload an empty
    // UnknownEvent, their tag, time, capability, offset and size as ever: for the tags whose
    // payload no part reads (pass_plan.hpp).
    void leave_undecoded(const TagSet& tags) { undecoded_ = tags; }

    // The next event in time order, or nullptr at the end; throws the reader's error where
    // the reader would have.
    const Event* next();
    // The same, but records stamped before `skip.before` whose type `skip.wanted` does not
    // hold are passed over without being decoded (a window's prelude wants few types).
    const Event* next(SkipBefore& skip);

    // Where the event next() gives next stands in time order, or nullopt where next() gives
    // the end or throws the reader's error. It may take the next batch: the event next() gave
    // last is then no longer valid (SplitPrefetcher asks before it takes the next event).
    std::optional<OrderKey> peek() {
        for (;;) {
            if (reading_) {
                if (position_ < reading_->size) return next_key();
                if (reading_->last) return std::nullopt;
            }
            take_next_batch();
        }
    }

    // With a WorkerPart: hands it, on this thread, what it left for the events taken so far
    // (after each event; WorkerPart::deliver()). At the end (next() gave nullptr), the
    // same to the end: what its finish() left too.
    void deliver_worker_outputs() {
        if (position_ > next_output_at_ && part_ && reading_)
            next_output_at_ = part_->deliver(*reading_->output, position_, std::exchange(new_output_, false));
    }
    void deliver_worker_outputs_to_end() {
        if (part_ && reading_)
            part_->deliver(*reading_->output, static_cast<std::size_t>(-1), std::exchange(new_output_, false));
    }

    // With CountOnly: what the reader counted instead of giving, once next() gave nullptr
    // (nothing before).
    const CountedRecords& counted() const { return counted_; }

private:
    // Diagnostics the reader counted while producing the event at `before` in its batch.
    struct DiagnosticCount {
        std::size_t before;
        Diagnostic diagnostic;
        std::uint64_t count;
    };
    // A record as the worker framed it; the consumer decodes it (a decoded event is ten
    // times larger than its record: moving records between the cores is what is cheap).
    struct Record {
        std::uint64_t offset;  // in the input
        std::uint64_t time;    // as the reader corrected it
        std::uint32_t size;
        CapNo cap;  // kGlobalCap: none (the reader gives the global block none)
        std::uint16_t tag;
        std::optional<CapNo> capability() const { return cap == kGlobalCap ? std::nullopt : std::optional<CapNo>(cap); }
    };
    // Every event crosses the cores in a batch, in as few words as it can: a batch holds its
    // records one after the other, each as its Stored words, then its offset in the input
    // only where the record before it in the batch does not end there (a batch's first, one
    // from another block, one after records kept back), then its payload in whole words (the
    // tag and time are in the Stored words; an event left undecoded, or one without fields,
    // needs no more). One stream of words for the worker to write and the consumer to read;
    // the consumer keeps the place, and the offset the next record follows on from.
    struct Stored {
        std::uint64_t time;
        std::uint32_t size_offset;  // the record's size << 1, | kOffsetFollows
        CapNo cap;
        std::uint16_t tag;
    };
    static_assert(sizeof(Stored) == 16);
    static constexpr std::uint32_t kOffsetFollows = 1;
    // A payload takes whole 8-byte words in a batch, as the worker writes them (add()).
    static constexpr std::size_t stored_size(std::size_t size) { return (size + 7) & ~std::size_t{7}; }
    // How far ahead next() asks for a batch's words.
    static constexpr std::size_t kBytesAhead = 512;
    struct alignas(kSeparateCacheLines) Batch {  // the worker fills one while the consumer reads another
        std::unique_ptr<std::uint8_t[]> bytes;   // kBatchBytes: records, each followed by its payload
        std::size_t size = 0;                    // records in use
        std::vector<DiagnosticCount> diagnostics;
        bool last = false;  // the reader's end (or its error) follows the events
        std::exception_ptr failure;
        CountedRecords counted;                // the last batch's: the reader's, in the end
        std::unique_ptr<WorkerOutput> output;  // the WorkerPart's, if any
    };

    // The consumer's: the record at at_ in reading_ (its offset taken without a branch: records
    // of many blocks, interleaved, carry their offsets at random), and where its payload starts.
    Record stored_record(const std::uint8_t*& after) const {
        const std::uint8_t* at = reading_->bytes.get() + at_;
        Stored s;
        std::memcpy(&s, at, sizeof s);
        at += sizeof s;
        std::uint64_t word;  // the offset, where it follows; else the payload's or next record's
        std::memcpy(&word, at, 8);
        const std::uint32_t follows = s.size_offset & kOffsetFollows;
        after = at + 8 * follows;
        return Record{follows ? word : next_offset_, s.time, s.size_offset >> 1, s.cap, s.tag};
    }
    // The consumer's: where the record at at_ in reading_ stands in time order.
    OrderKey next_key() const {
        const std::uint8_t* after = nullptr;
        const Record r = stored_record(after);
        return OrderKey{r.time, r.offset};
    }
    // The consumer's: takes the record at at_ in reading_, its payload at `payload`.
    Record take_stored(const std::uint8_t*& payload, std::size_t& payload_size) {
        const Record r = stored_record(payload);
        next_offset_ = r.offset + r.size;
        payload_size = r.size - payload_at(r.tag, r.size);
        at_ = static_cast<std::size_t>(payload - reading_->bytes.get()) + stored_size(payload_size);
        ++position_;
        return r;
    }

    EventPrefetcher(TimeOrderedReader& reader, Diagnostics& diagnostics, std::size_t batch_events,
                    std::optional<OrderKey> from, const TagSet* count_only = nullptr,
                    std::span<RepeatFilter* const> repeats = {}, EventPrefetcher* other = nullptr,
                    WorkerPart* part = nullptr);
    void run();  // the worker
    // kStream: the batch's words bypass the worker's cache (add()).
    template <bool kStream>
    void fill(Batch& batch);
    template <bool kStream>
    void fill_merging(Batch& batch);  // with other_
    void end_with_failure(Batch& batch);
    // Adds `record` to `batch` after its `used` bytes; whether there is room for another.
    template <bool kStream>
    bool add(Batch& batch, std::size_t& used, const RawRecord& record);
    // The same, framed already (`r`), its payload at `payload`: in the record's bytes
    // (kHeaderBefore), or in another batch's.
    template <bool kStream, bool kHeaderBefore>
    bool add_payload(Batch& batch, std::size_t& used, const Record& r, const std::uint8_t* payload);
    // Where a record's payload starts in its bytes: after its tag, time and, for a variable
    // size, its length (a record is never shorter: framing checked it).
    std::size_t payload_at(std::uint16_t tag, std::size_t size) const {
        return std::min(payload_offset(header_, tag), size);
    }
    // As its consumer (other_'s worker): the record peek() told of, and its payload; valid until
    // the next call.
    Record take_record(const std::uint8_t*& payload) {
        if (next_diagnostic_ < reading_->diagnostics.size()) count_diagnostics_before(position_);  // rare
        ask_ahead();
        std::size_t payload_size = 0;
        return take_stored(payload, payload_size);
    }
    // Before taking the record at position_: the other core wrote the batch's lines, so the
    // ones a little ahead are asked for before they are needed.
    void ask_ahead() const { __builtin_prefetch(reading_->bytes.get() + at_ + kBytesAhead); }
    // The record just added to `batch` to the WorkerPart, framed; whether its output has room.
    bool give_part(Batch& batch, const Record& r, const std::uint8_t* payload, std::size_t payload_size);
    void note_diagnostics(Batch& batch);
    void take_next_batch();
    void count_diagnostics_before(std::size_t index);

    // Set once: read by both threads, written by neither.
    TimeOrderedReader& reader_;
    const Header header_;       // a copy: the reader's own shares cache lines with its busy state
    Diagnostics& diagnostics_;  // the consumer's
    const std::size_t batch_events_;
    WorkerPart* const part_;

    // The consumer's.
    alignas(kSeparateCacheLines) std::unique_ptr<Batch> reading_;
    std::size_t position_ = 0;       // next event of reading_
    std::size_t at_ = 0;             // its words in reading_
    std::uint64_t next_offset_ = 0;  // where the record taken last ends in the input
    std::size_t next_diagnostic_ = 0;
    TagSet undecoded_;                // leave_undecoded()'s
    Event event_;                     // the last one decoded; its text fields point into reading_'s bytes
    bool new_output_ = true;          // reading_'s part output not delivered from yet
    std::size_t next_output_at_ = 0;  // of reading_: the first event whose outputs wait
    std::uint64_t taken_at_ = 0;      // with part_: when it took reading_ (steady clock, ns)

    // The worker's: what the reader counts, and what of it went into batches already.
    alignas(kSeparateCacheLines) Diagnostics reader_diagnostics_;
    Diagnostics noted_;
    double worker_cpu_ = 0;             // its CPU seconds, once run() returned
    double* worker_cpu_to_ = nullptr;   // the consumer's: where the destructor reports it
    EventPrefetcher* other_ = nullptr;  // the records merged with the reader's (fill_merging())
    RawRecord pending_;                 // the reader's next, taken while other_'s came first
    TagSet part_tags_;                  // part_'s
    WorkerEvent part_event_;            // the last one given to part_
    std::uint64_t latest_ = 0;          // the latest time of the records added (with part_)
    std::uint64_t added_end_ = 0;       // where the record added last ends in the input
    bool has_pending_ = false, reader_done_ = false;
    Pace pace_;  // with part_: what batch_begins() is told

    // Shared, under the mutex. Four batches: the one the consumer reads, the one the worker
    // fills, the rest ready or free.
    alignas(kSeparateCacheLines) std::vector<std::unique_ptr<Batch>> free_;
    std::deque<std::unique_ptr<Batch>> ready_;  // in reading order
    bool stopping_ = false;
    // How many batches a waiting side waits for (0: it is not waiting), and whether it waited
    // the last time (each side's own).
    std::size_t worker_wants_ = 0, consumer_wants_ = 0;
    bool worker_waited_ = false, consumer_waited_ = false;
    std::uint64_t consumer_ns_ = 0, consumer_events_ = 0;  // with part_: its latest batch's (Pace)
    std::mutex mutex_;
    std::condition_variable changed_;
    // The consumer's, once: the last batch's (apart, away from the lines each event touches).
    alignas(kSeparateCacheLines) CountedRecords counted_;
    std::thread worker_;  // last: started once everything above exists
};

}  // namespace el2fx::eventlog

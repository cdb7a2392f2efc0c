#include "eventlog/event_prefetcher.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cstring>
#include <utility>

#if defined(__x86_64__)
#include <immintrin.h>  // _mm_stream_si64, _mm_sfence
#endif

#include "eventlog/byte_reader.hpp"
#include "eventlog/payload_decoder.hpp"
#include "eventlog/record_framing.hpp"
#include "util/error.hpp"
#include "util/thread_cpu.hpp"

namespace el2fx::eventlog {
namespace {

// The largest record framing allows: tag, time, a 16-bit payload size and that payload.
constexpr std::size_t kMaxRecordBytes = 2 + 8 + 2 + 0xFFFF;
static_assert(EventPrefetcher::kBatchBytes >= 2 * (24 + kMaxRecordBytes + 7));  // Stored, offset, payload
constexpr std::size_t kBatches = 4;
// The faster side, which waits time after time, is woken once two batches are there for it,
// not one: half the wake-ups (each a system call on the busier side that wakes it). The
// busier side, waiting only now and then, is woken at once. With four batches the faster side
// fills two while the busier one reads a third.
constexpr std::size_t kWakeAfter = 2;

std::uint64_t steady_ns() {
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
            .count());
}

// Sanitizers see plain stores only: their builds store every word through the cache.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define EL2FX_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define EL2FX_SANITIZED 1
#endif
#endif
#if defined(__x86_64__) && !defined(EL2FX_SANITIZED)
#define EL2FX_STREAM_STORES 1
#endif

// The worker writes each batch for the consumer's core, which read it the time before: a
// store through the cache first takes the line back from that core. A store that bypasses the
// cache does not (and a batch's words are consecutive, so they fill whole lines), but then the
// consumer reads the batch from memory, not from the worker's cache. So the worker streams its
// words while the consumer waits for it, and stores them through the cache while it is the
// one waiting (run()): the side with time to spare pays.
template <bool kStream>
inline void store_word(std::uint8_t* to, std::uint64_t word) {
#if defined(EL2FX_STREAM_STORES)
    if constexpr (kStream) {
        _mm_stream_si64(reinterpret_cast<long long*>(to), static_cast<long long>(word));
        return;
    }
#endif
    std::memcpy(to, &word, 8);
}
// Streamed words are ordered before the hand-over of their batch.
inline void publish_streamed() {
#if defined(EL2FX_STREAM_STORES)
    _mm_sfence();
#endif
}

inline std::uint64_t load_word(const std::uint8_t* from) {
    std::uint64_t word;
    std::memcpy(&word, from, 8);
    return word;
}

// A payload's `size` bytes into stored_size(size) bytes at `to` (8-byte aligned). Its last word
// is loaded ending at its end and shifted down: a payload framed in a record has the record's
// tag and time before it (kHeaderBefore), one in a batch (kHeaderBefore false) has its words'
// padding after it, so nothing outside the record or the batch's words is read.
template <bool kStream, bool kHeaderBefore>
inline void store_payload(std::uint8_t* to, const std::uint8_t* from, std::size_t size) {
    if constexpr (!kHeaderBefore) {
        for (std::size_t i = 0; i < (size + 7) / 8; ++i) store_word<kStream>(to + 8 * i, load_word(from + 8 * i));
        return;
    }
    static_assert(kEventHeader >= 8);
    const std::size_t whole = size / 8, rest = size % 8;
    for (std::size_t i = 0; i < whole; ++i) store_word<kStream>(to + 8 * i, load_word(from + 8 * i));
    if (rest == 0) return;
    std::uint64_t last = load_word(from + size - 8);
    if constexpr (std::endian::native == std::endian::little)
        last >>= 8 * (8 - rest);
    else
        last <<= 8 * (8 - rest);
    store_word<kStream>(to + 8 * whole, last);
}

}  // namespace

EventPrefetcher::EventPrefetcher(TimeOrderedReader& reader, Diagnostics& diagnostics, std::size_t batch_events)
    : EventPrefetcher(reader, diagnostics, batch_events, std::nullopt) {}

EventPrefetcher::EventPrefetcher(TimeOrderedReader& reader, Diagnostics& diagnostics, std::optional<OrderKey> from,
                                 WorkerPart* part, std::size_t batch_events)
    : EventPrefetcher(reader, diagnostics, batch_events, from, nullptr, {}, nullptr, part) {}

EventPrefetcher::EventPrefetcher(TimeOrderedReader& reader, Diagnostics& diagnostics, CountOnly count_only,
                                 std::size_t batch_events)
    : EventPrefetcher(reader, diagnostics, batch_events, std::nullopt, count_only.tags, count_only.repeats) {}

EventPrefetcher::EventPrefetcher(TimeOrderedReader& reader, Diagnostics& diagnostics, CountOnly count_only,
                                 EventPrefetcher& other, std::size_t batch_events)
    : EventPrefetcher(reader, diagnostics, batch_events, std::nullopt, count_only.tags, count_only.repeats, &other) {}

EventPrefetcher::EventPrefetcher(TimeOrderedReader& reader, Diagnostics& diagnostics, std::size_t batch_events,
                                 std::optional<OrderKey> from, const TagSet* count_only,
                                 std::span<RepeatFilter* const> repeats, EventPrefetcher* other, WorkerPart* part)
    : reader_(reader),
      header_(reader.header()),
      diagnostics_(diagnostics),
      batch_events_(std::max<std::size_t>(1, batch_events)),
      part_(part),
      other_(other) {
    if (part_) part_tags_ = part_->tags();
    reader_.restart(reader_diagnostics_, from);
    if (count_only) reader_.count_only(*count_only, repeats);  // before the worker starts
    for (std::size_t i = 0; i < kBatches; ++i) {
        auto batch = std::make_unique<Batch>();
        // Not value-initialised: only the pages records are copied to become resident (a
        // batch of usual records fills a third of it).
        batch->bytes.reset(new std::uint8_t[kBatchBytes]);
        if (part_) batch->output = part_->make_output();
        free_.push_back(std::move(batch));
    }
    worker_ = std::thread([this] { run(); });
}

EventPrefetcher::~EventPrefetcher() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    changed_.notify_all();
    worker_.join();
    if (worker_cpu_to_) *worker_cpu_to_ = worker_cpu_;
}

void EventPrefetcher::run() {
    const double cpu_at_start = util::thread_cpu_seconds();
    struct NoteCpu {  // however run() returns
        double& to;
        double start;
        ~NoteCpu() { to = util::thread_cpu_seconds() - start; }
    } note_cpu{worker_cpu_, cpu_at_start};
    for (;;) {
        std::unique_ptr<Batch> batch;
        {
            std::unique_lock lock(mutex_);
            if (free_.empty() && !stopping_) {
                worker_wants_ = worker_waited_ ? kWakeAfter : 1;
                changed_.wait(lock, [&] { return stopping_ || free_.size() >= worker_wants_; });
                worker_wants_ = 0;
                worker_waited_ = true;
            } else {
                worker_waited_ = false;
            }
            if (stopping_) return;
            batch = std::move(free_.back());
            free_.pop_back();
            pace_.consumer_ns = consumer_ns_;
            pace_.consumer_events = consumer_events_;
        }
        if (part_) part_->batch_begins(pace_);
        const std::uint64_t fill_start = part_ ? steady_ns() : 0;
        // The worker waited for this batch: the consumer is the slower side.
        if (worker_waited_) {
            fill<false>(*batch);
        } else {
            fill<true>(*batch);
            publish_streamed();
        }
        if (part_) {
            pace_.worker_ns = steady_ns() - fill_start;
            pace_.worker_events = batch->size;
        }
        const bool last = batch->last;
        bool wake = false;
        {
            std::lock_guard lock(mutex_);
            ready_.push_back(std::move(batch));
            wake = consumer_wants_ > 0 && (last || ready_.size() >= consumer_wants_);
        }
        if (wake) changed_.notify_all();
        if (last) return;
    }
}

template <bool kStream>
[[gnu::always_inline]] inline bool EventPrefetcher::add(Batch& batch, std::size_t& used, const RawRecord& record) {
    if (record.size > kMaxRecordBytes)  // framing cannot give one; never write past the batch
        throw Error("record larger than any eventlog record", {{}, record.offset, {}});
    const std::uint16_t tag = load_be16(record.bytes);
    const std::size_t at = payload_at(tag, record.size);
    Record r;
    r.offset = record.offset;
    r.time = record.time;
    r.size = record.size;
    r.cap = record.cap.value_or(kGlobalCap);
    r.tag = tag;
    return add_payload<kStream, true>(batch, used, r, record.bytes + at);
}

template <bool kStream, bool kHeaderBefore>
[[gnu::always_inline]] inline bool EventPrefetcher::add_payload(Batch& batch, std::size_t& used, const Record& r,
                                                                const std::uint8_t* payload) {
    const std::size_t payload_size = r.size - payload_at(r.tag, r.size);
    const bool offset_follows = batch.size == 0 || r.offset != added_end_;
    added_end_ = r.offset + r.size;
    // The record as two words (time, then size, capability and tag as laid out), its offset
    // where it does not follow on, its payload.
    const Stored stored{r.time, r.size << 1 | (offset_follows ? kOffsetFollows : 0), r.cap, r.tag};
    std::array<std::uint64_t, 2> words;
    std::memcpy(words.data(), &stored, sizeof stored);
    std::uint8_t* to = batch.bytes.get() + used;
    for (std::size_t i = 0; i < words.size(); ++i) store_word<kStream>(to + 8 * i, words[i]);
    to += sizeof stored;
    store_word<kStream>(to, r.offset);  // kept only where it does not follow on: no branch (stored_record())
    to += offset_follows ? 8 : 0;
    store_payload<kStream, kHeaderBefore>(to, payload, payload_size);
    ++batch.size;
    used = static_cast<std::size_t>(to - batch.bytes.get()) + stored_size(payload_size);
    if (part_) {
        latest_ = std::max(latest_, r.time);
        if (part_tags_[r.tag] && !give_part(batch, r, payload, payload_size)) return false;
    }
    return batch.size < batch_events_ && kBatchBytes - used >= sizeof(Stored) + 8 + stored_size(kMaxRecordBytes);
}

bool EventPrefetcher::give_part(Batch& batch, const Record& r, const std::uint8_t* payload, std::size_t payload_size) {
    part_event_.time = r.time;
    part_event_.tag = r.tag;
    part_event_.cap = r.capability();
    part_event_.payload = payload;
    part_event_.payload_size = payload_size;
    return part_->handle(part_event_, latest_, batch.size - 1, *batch.output);
}

// Frames records in time order and copies their bytes into the batch.
template <bool kStream>
void EventPrefetcher::fill(Batch& batch) {
    batch.size = 0;
    batch.diagnostics.clear();
    batch.last = false;
    batch.failure = nullptr;
    if (batch.output) batch.output->clear();
    if (other_) return fill_merging<kStream>(batch);
    std::size_t used = 0;
    try {
        for (bool room = true; room;) {
            // Most records come in runs of one block's, with nothing between them to note.
            if (reader_.next_records_of_block(
                    [&](const RawRecord& record) { return room = add<kStream>(batch, used, record); }))
                continue;
            const RawRecord* record = reader_.next_record();
            if (reader_diagnostics_.total() != noted_.total()) note_diagnostics(batch);
            if (!record) {
                if (part_) part_->finish(latest_, batch.size, *batch.output);
                batch.last = true;
                batch.counted = reader_.counted();
                return;
            }
            room = add<kStream>(batch, used, *record);
        }
    } catch (...) {
        end_with_failure(batch);
    }
}

namespace {
bool before(const RawRecord& r, const OrderKey& key) {
    return r.time < key.time || (r.time == key.time && r.offset < key.offset);
}
}  // namespace

// As fill(), merging the reader's records with other_'s: runs of each, while they come
// before the other side's next.
template <bool kStream>
void EventPrefetcher::fill_merging(Batch& batch) {
    std::size_t used = 0;
    try {
        for (bool room = true; room;) {
            if (!has_pending_ && !reader_done_) {
                const RawRecord* record = reader_.next_record();
                if (reader_diagnostics_.total() != noted_.total()) note_diagnostics(batch);
                if (record)
                    pending_ = *record;  // its bytes stay in place until the reader's next call
                else
                    reader_done_ = true;
                has_pending_ = record != nullptr;
            }
            std::optional<OrderKey> theirs = other_->peek();
            if (has_pending_ && (!theirs || before(pending_, *theirs))) {
                has_pending_ = false;
                if (!(room = add<kStream>(batch, used, pending_))) break;
                reader_.next_records_of_block([&](const RawRecord& record) {
                    if (theirs && !before(record, *theirs)) {
                        pending_ = record;
                        has_pending_ = true;
                        return false;
                    }
                    return room = add<kStream>(batch, used, record);
                });
                if (reader_diagnostics_.total() != noted_.total()) note_diagnostics(batch);
                continue;
            }
            if (theirs) {
                do {
                    const std::uint8_t* payload = nullptr;
                    const Record record = other_->take_record(payload);
                    room = add_payload<kStream, false>(batch, used, record, payload);
                    if (!room) break;
                    theirs = other_->peek();
                } while (theirs && (!has_pending_ || !before(pending_, *theirs)));
                continue;
            }
            other_->next();  // both at their end: the other's error, if any, is thrown
            batch.last = true;
            batch.counted = reader_.counted();
            const CountedRecords& counted = other_->counted();
            for (std::size_t tag = 0; tag < CountedRecords::kTags; ++tag)
                batch.counted.by_tag[tag] += counted.by_tag[tag];
            batch.counted.latest_time = std::max(batch.counted.latest_time, counted.latest_time);
            return;
        }
    } catch (...) {
        end_with_failure(batch);
    }
}

// The batch ends with the error being handled (in a catch block): the reader's error, or the
// other's (fill_merging()).
void EventPrefetcher::end_with_failure(Batch& batch) {
    if (reader_diagnostics_.total() != noted_.total()) note_diagnostics(batch);
    batch.failure = std::current_exception();
    batch.last = true;
    batch.counted = reader_.counted();
}

// What the reader counted since the last note belongs to the event about to be added.
void EventPrefetcher::note_diagnostics(Batch& batch) {
    for (std::size_t i = 0; i < kDiagnosticCount; ++i) {
        const auto d = static_cast<Diagnostic>(i);
        if (const std::uint64_t n = reader_diagnostics_.count(d) - noted_.count(d))
            batch.diagnostics.push_back({batch.size, d, n});
    }
    noted_ = reader_diagnostics_;
}

void EventPrefetcher::count_diagnostics_before(std::size_t index) {
    const std::vector<DiagnosticCount>& counts = reading_->diagnostics;
    for (; next_diagnostic_ < counts.size() && counts[next_diagnostic_].before <= index; ++next_diagnostic_)
        diagnostics_.add(counts[next_diagnostic_].diagnostic, counts[next_diagnostic_].count);
}

void EventPrefetcher::take_next_batch() {
    const std::uint64_t done_at = part_ ? steady_ns() : 0;
    std::unique_lock lock(mutex_);
    if (reading_ && part_) {
        consumer_ns_ = done_at - taken_at_;
        consumer_events_ = reading_->size;
    }
    if (reading_) {
        free_.push_back(std::move(reading_));
        if (worker_wants_ > 0 && free_.size() >= worker_wants_) {
            lock.unlock();
            changed_.notify_all();
            lock.lock();
        }
    }
    if (ready_.empty()) {
        consumer_wants_ = consumer_waited_ ? kWakeAfter : 1;
        // Free + ready is every batch but the one the worker fills: one of them holds two, so
        // one side's condition always holds (no deadlock), and the other side wakes it.
        changed_.wait(lock,
                      [&] { return ready_.size() >= consumer_wants_ || (!ready_.empty() && ready_.back()->last); });
        consumer_wants_ = 0;
        consumer_waited_ = true;
    } else {
        consumer_waited_ = false;
    }
    reading_ = std::move(ready_.front());
    if (part_) taken_at_ = steady_ns();
    new_output_ = true;
    next_output_at_ = 0;
    ready_.pop_front();
    if (reading_->last) counted_ = reading_->counted;
    position_ = 0;
    at_ = 0;
    next_diagnostic_ = 0;
}

const Event* EventPrefetcher::next(SkipBefore& skip) {
    for (;;) {
        if (reading_) {
            if (next_diagnostic_ < reading_->diagnostics.size()) count_diagnostics_before(position_);  // rare
            while (position_ < reading_->size) {
                Stored s;
                std::memcpy(&s, reading_->bytes.get() + at_, sizeof s);
                if (s.time < skip.before && !skip.wanted->test(s.tag)) {
                    const std::uint8_t* payload = nullptr;
                    std::size_t payload_size = 0;
                    const Record r = take_stored(payload, payload_size);
                    skip.last_time = std::max(skip.last_time, r.time);
                    if (const std::optional<CapNo> cap = r.capability()) {
                        if (*cap >= skip.caps.size()) skip.caps.resize(std::size_t{*cap} + 1);
                        skip.caps[*cap] = true;
                    }
                    if (next_diagnostic_ < reading_->diagnostics.size()) count_diagnostics_before(position_);
                    continue;
                }
                return next();
            }
            if (reading_->last) return next();  // the end, or the reader's error
        }
        take_next_batch();
    }
}

const Event* EventPrefetcher::next() {
    for (;;) {
        if (reading_) {
            if (next_diagnostic_ < reading_->diagnostics.size()) count_diagnostics_before(position_);  // rare
            if (position_ < reading_->size) {
                ask_ahead();
                const std::uint8_t* payload = nullptr;
                std::size_t payload_size = 0;
                const Record r = take_stored(payload, payload_size);
                event_.time = r.time;
                event_.offset = r.offset;
                event_.size = r.size;
                event_.tag = r.tag;
                event_.cap = r.capability();
                if (undecoded_[r.tag]) {
                    event_.payload.emplace<UnknownEvent>();  // leave_undecoded()'s
                } else {
                    decode_payload_into(r.tag, payload, payload_size, event_.payload);
                }
                return &event_;
            }
            if (reading_->last) {
                if (std::exception_ptr failure = std::exchange(reading_->failure, nullptr))
                    std::rethrow_exception(failure);
                return nullptr;
            }
        }
        take_next_batch();
    }
}

}  // namespace el2fx::eventlog

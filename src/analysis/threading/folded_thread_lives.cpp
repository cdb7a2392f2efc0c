#include "analysis/threading/folded_thread_lives.hpp"

#include <algorithm>

#include "eventlog/event_types.hpp"

namespace el2fx::analysis {

FoldedThreadLives::FoldedThreadLives(const util::FixedIdSet& followed, std::uint64_t sampling_interval_ns,
                                     FoldedSampleSink& sink, Diagnostics& diagnostics)
    : followed_(followed),
      interval_(sampling_interval_ns),
      lives_(found_, sampling_interval_ns, to_chunk_),
      sink_(sink),
      diagnostics_(diagnostics) {}

namespace {
std::size_t mix(std::uint64_t a, std::uint64_t b) {  // splitmix64's finalizer: every bit of both
    std::uint64_t h = a * 0x9e3779b97f4a7c15ull ^ b;
    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
    h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
    return static_cast<std::size_t>(h ^ (h >> 31));
}
std::uint64_t word(const ThreadActivity& a) {
    return static_cast<std::uint64_t>(a.state) | std::uint64_t{a.cap} << 8 | std::uint64_t{a.reason.status} << 24 |
           ((std::uint64_t{a.reason.blocker} << 40) ^ (std::uint64_t{a.reason.blocker} >> 24));
}
}  // namespace

std::size_t FoldedThreadLives::SumKeyHash::operator()(const SumKey& k) const { return mix(k.time, word(k.key)); }
std::size_t FoldedThreadLives::ActivityHash::operator()(const ThreadActivity& a) const { return mix(0, word(a)); }

void FoldedThreadLives::take(eventlog::ThreadId thread, const Sample<ThreadActivity>& sample) {
    const SumKey key{on_sampling_grid(sample.time, interval_), sample.key};
    // Many threads' samples of one tick and activity come one after another.
    if (last_row_ && sum_keys_[last_row_ - 1] == key)
        sum_weights_[last_row_ - 1] += sample.weight;
    else
        last_row_ = add_to_row(thread, key, sample.weight);
    if (++taken_ < FoldedSampleSink::kChunkSamples) return;
    push_sums(thread);
    push(Item{0, thread, Kind::chunk_full, false, {}, {}, 0, 0});
}

std::uint32_t FoldedThreadLives::add_to_row(eventlog::ThreadId thread, const SumKey& key, std::uint64_t weight) {
    std::uint32_t& slot = sum_slot(key);
    if (slot != 0) {
        sum_weights_[slot - 1] += weight;
        return slot;
    }
    // A key the chunk holds was seen before: only a new row may be a new key.
    if (seen_.insert(key.key).second) push(Item{0, thread, Kind::activity, false, {}, key.key, 0, 0});
    sum_keys_.push_back(key);
    sum_weights_.push_back(weight);
    const auto row = static_cast<std::uint32_t>(sum_keys_.size());
    slot = row;
    if (sum_keys_.size() * 2 > sum_slots_.size()) {  // twice the slots, every row again
        sum_slots_.assign(sum_slots_.size() * 2, 0);
        for (std::size_t i = 0; i < sum_keys_.size(); ++i) sum_slot(sum_keys_[i]) = static_cast<std::uint32_t>(i + 1);
    }
    return row;
}

std::uint32_t& FoldedThreadLives::sum_slot(const SumKey& key) {
    const std::size_t mask = sum_slots_.size() - 1;
    for (std::size_t at = SumKeyHash{}(key)&mask;; at = (at + 1) & mask) {
        std::uint32_t& slot = sum_slots_[at];
        if (slot == 0 || sum_keys_[slot - 1] == key) return slot;
    }
}

void FoldedThreadLives::push_sums(eventlog::ThreadId thread) {
    for (std::size_t i = 0; i < sum_keys_.size(); ++i)
        push(Item{0, thread, Kind::sum, false, {}, sum_keys_[i].key, sum_keys_[i].time, sum_weights_[i]});
    if (!sum_keys_.empty()) std::fill(sum_slots_.begin(), sum_slots_.end(), 0);
    sum_keys_.clear();
    sum_weights_.clear();
    last_row_ = 0;
    taken_ = 0;
}

const eventlog::TagSet& FoldedThreadLives::tags() const {
    using namespace eventlog;
    static const TagSet tags = [] {
        TagSet t;
        for (std::uint16_t tag : {RunThread::tag, StopThread::tag, WakeupThread::tag}) t.set(tag);
        return t;
    }();
    return tags;
}

std::unique_ptr<eventlog::WorkerOutput> FoldedThreadLives::make_output() const { return std::make_unique<Output>(); }

bool FoldedThreadLives::handle(const eventlog::Event& event, std::uint64_t now, std::size_t index,
                               eventlog::WorkerOutput& out) {
    using namespace eventlog;
    if (!event.cap) return true;  // the threading analysis counts it
    out_ = &static_cast<Output&>(out);
    index_ = static_cast<std::uint32_t>(index);
    switch (event.tag) {
        case RunThread::tag:
            if (const auto* run = event.as<RunThread>(); run && !followed_.contains(run->thread))
                lives_.run_thread(run->thread, *event.cap, now);
            break;
        case StopThread::tag:
            if (const auto* stop = event.as<StopThread>(); stop && !followed_.contains(stop->thread))
                lives_.stop_thread(stop->thread, now, stop->status, stop->blocker.value_or(0), event.synthetic);
            break;
        case WakeupThread::tag:
            if (const auto* wakeup = event.as<WakeupThread>(); wakeup && !followed_.contains(wakeup->thread))
                lives_.wakeup_thread(wakeup->thread);
            break;
        default: break;
    }
    if (found_.total() != noted_.total()) note_diagnostics();
    return out_->items.size() < kRoomyItems;
}

void FoldedThreadLives::finish(std::uint64_t now, std::size_t index, eventlog::WorkerOutput& out) {
    out_ = &static_cast<Output&>(out);
    index_ = static_cast<std::uint32_t>(index);
    ending_ = true;
    lives_.finish(now);
    if (found_.total() != noted_.total()) note_diagnostics();
    // The chunk's last sums, delivered after every thread's end: the shared track adds them
    // with its other pending samples.
    push_sums(eventlog::ThreadId(-1));
}

void FoldedThreadLives::note_diagnostics() {
    for (std::size_t i = 0; i < kDiagnosticCount; ++i) {
        const auto d = static_cast<Diagnostic>(i);
        if (const std::uint64_t n = found_.count(d) - noted_.count(d))
            push(Item{0, 0, Kind::diagnostic, false, d, {}, 0, n});
    }
    noted_ = found_;
}

std::size_t FoldedThreadLives::deliver(const eventlog::WorkerOutput& out, std::size_t end, bool from_start) {
    const std::vector<Item>& items = static_cast<const Output&>(out).items;
    if (from_start) delivered_ = 0;
    for (; delivered_ < items.size() && items[delivered_].index < end; ++delivered_) {
        if (items[delivered_].at_end)
            finishing_.push_back(items[delivered_]);
        else
            deliver(items[delivered_]);
    }
    return delivered_ < items.size() ? items[delivered_].index : static_cast<std::size_t>(-1);
}

void FoldedThreadLives::deliver(const Item& item) {
    switch (item.kind) {
        case Kind::diagnostic: diagnostics_.add(item.diagnostic, item.count); break;
        case Kind::activity: sink_.folded_activity(item.key); break;
        case Kind::sum: sink_.folded_sum(item.time, item.key, item.count); break;
        case Kind::chunk_full: sink_.folded_chunk_full(); break;
    }
}

void FoldedThreadLives::deliver_finished_before(std::optional<eventlog::ThreadId> id) {
    // In id order as finish() found them; its diagnostics come last.
    for (; finishing_at_ < finishing_.size(); ++finishing_at_) {
        const Item& item = finishing_[finishing_at_];
        if (id && item.kind != Kind::diagnostic && item.thread >= *id) return;
        deliver(item);
    }
}

}  // namespace el2fx::analysis

#include "analysis/threading/reader_thread_lives.hpp"

#include <algorithm>
#include <utility>

#include "eventlog/event_types.hpp"
#include "util/hash_mix.hpp"

namespace el2fx::analysis {

ReaderThreadLives::ReaderThreadLives(Setup setup, ReaderLivesSink& sink, Diagnostics& diagnostics)
    : setup_(std::move(setup)),
      own_(setup_.own),
      lives_(found_, setup_.sampling_interval_ns, to_items_, recent_slots(setup_)),
      recent_tracks_(recent_slots(setup_)),
      sink_(sink),
      diagnostics_(diagnostics) {
    for (std::size_t i = 0; i < setup_.own.size(); ++i) {
        track_of_.emplace(setup_.own[i], static_cast<std::uint32_t>(i));
        filters_.emplace_back(setup_.span_detail);
    }
}

namespace {
std::uint64_t word(const ThreadActivity& a) {
    return static_cast<std::uint64_t>(a.state) | std::uint64_t{a.cap} << 8 | std::uint64_t{a.reason.status} << 24 |
           ((std::uint64_t{a.reason.blocker} << 40) ^ (std::uint64_t{a.reason.blocker} >> 24));
}
}  // namespace

std::size_t ReaderThreadLives::SumKeyHash::operator()(const SumKey& k) const {
    return util::hash_combine(k.time, word(k.key));
}
std::size_t ReaderThreadLives::ActivityHash::operator()(const ThreadActivity& a) const { return util::mix64(word(a)); }

const eventlog::TagSet& ReaderThreadLives::tags() const {
    using namespace eventlog;
    static const TagSet tags = [] {
        TagSet t;
        for (std::uint16_t tag : {RunThread::tag, StopThread::tag, WakeupThread::tag}) t.set(tag);
        return t;
    }();
    return tags;
}

std::unique_ptr<eventlog::WorkerOutput> ReaderThreadLives::make_output() const { return std::make_unique<Output>(); }

void ReaderThreadLives::batch_begins(const eventlog::Pace& pace) {
    FoldedShare* share = setup_.folded ? setup_.folded_share : nullptr;
    if (!share || pace.worker_events == 0 || pace.consumer_events == 0) return;
    // Each side's time per event over a few batches (one batch's is noisy). Two states, apart
    // by a wide margin: a share that followed each look (measured) swung with the noise, and
    // each change costs both sides a longer look-up for the threads made before it.
    paced_.worker_ns += static_cast<double>(pace.worker_ns) / static_cast<double>(pace.worker_events);
    paced_.consumer_ns += static_cast<double>(pace.consumer_ns) / static_cast<double>(pace.consumer_events);
    if (++paced_.batches < kPaceBatches) return;
    const double ratio = paced_.worker_ns / std::max(paced_.consumer_ns, 1.0);
    paced_ = {};
    if (ratio > 1 + kUneven)
        share->set(next_thread_, kShareWhereUneven);
    else if (ratio < 1 - kUneven)
        share->set(next_thread_, 0);
}

bool ReaderThreadLives::handle(const eventlog::WorkerEvent& event, std::uint64_t now, std::size_t index,
                               eventlog::WorkerOutput& out) {
    using namespace eventlog;
    if (!event.cap) return true;  // the threading analysis counts it
    out_ = &static_cast<Output&>(out);
    index_ = static_cast<std::uint32_t>(index);
    // A payload too short for its fields is left to the consumer's analysis, which counts it.
    switch (event.tag) {
        case RunThread::tag:
            if (RunThread run; event.decode(run) && keeps(run.thread)) lives_.run_thread(run.thread, *event.cap, now);
            break;
        case StopThread::tag:
            if (StopThread stop; event.decode(stop) && keeps(stop.thread))
                lives_.stop_thread(stop.thread, now, stop.status, stop.blocker.value_or(0), false);
            break;
        case WakeupThread::tag:
            if (WakeupThread wakeup; event.decode(wakeup) && keeps(wakeup.thread)) lives_.wakeup_thread(wakeup.thread);
            break;
        default: break;
    }
    if (found_.total() != noted_.total()) note_diagnostics();
    return out_->items.size() < kRoomyItems && out_->sums.size() < kRoomyItems;
}

void ReaderThreadLives::finish(std::uint64_t now, std::size_t index, eventlog::WorkerOutput& out) {
    out_ = &static_cast<Output&>(out);
    index_ = static_cast<std::uint32_t>(index);
    ending_ = true;
    lives_.finish(now);
    if (found_.total() != noted_.total()) note_diagnostics();
    // The chunk's last sums, delivered after every life's end: the shared track adds them
    // with its other pending samples.
    push_sums(eventlog::ThreadId(-1));
    flushing_ = true;
    for (std::uint32_t track = 0; track < filters_.size(); ++track) {
        RunningItems running{*this, setup_.own[track], track};
        StoppedItems stopped{*this, setup_.own[track], track};
        filters_[track].finish(running, stopped);
    }
}

void ReaderThreadLives::ToItems::thread_span(eventlog::ThreadId thread, const ThreadStateSpan& span) {
    if (owner.setup_.folded) return;  // a folded thread's: no track draws it
    const std::optional<std::uint32_t> track = owner.own_track(thread);
    if (!track) return;
    RunningItems running{owner, thread, *track};
    StoppedItems stopped{owner, thread, *track};
    owner.filters_[*track].offer(span, off_cpu_kind(span.activity.reason.status), running, stopped);
}

void ReaderThreadLives::ToItems::thread_sample(eventlog::ThreadId thread, const Sample<ThreadActivity>& sample) {
    if (owner.setup_.folded) return owner.take_folded(thread, sample);  // the lives kept are the folded ones
    Item item;
    item.thread = thread;
    item.kind = Kind::own_sample;
    item.key = sample.key;
    item.time = sample.time;
    item.count = sample.weight;
    item.cpu_delta_ns = sample.cpu_delta_ns;
    owner.push(item);
}

void ReaderThreadLives::RunningItems::span(std::uint64_t start, std::uint64_t end, eventlog::CapNo cap) {
    Item item;
    item.thread = thread;
    item.track = track;
    item.kind = Kind::running_span;
    item.key.cap = cap;
    item.time = start;
    item.end = end;
    owner.push(item);
}

void ReaderThreadLives::RunningItems::merged(const MergedSpans& group) {
    Item item;
    item.thread = thread;
    item.track = track;
    item.kind = Kind::running_merged;
    item.merged = group;
    owner.push(item);
}

void ReaderThreadLives::StoppedItems::span(std::uint64_t start, std::uint64_t end, const ThreadActivity& a) {
    Item item;
    item.thread = thread;
    item.track = track;
    item.kind = Kind::stopped_span;
    item.key = a;
    item.time = start;
    item.end = end;
    owner.push(item);
}

void ReaderThreadLives::StoppedItems::merged(const MergedSpans& group, const StoppedTally& tally) {
    Item item;
    item.thread = thread;
    item.track = track;
    item.kind = Kind::stopped_merged;
    item.merged = group;
    item.status = tally.by_status.dominant();
    owner.push(item);
}

void ReaderThreadLives::take_folded(eventlog::ThreadId thread, const Sample<ThreadActivity>& sample) {
    const SumKey key{on_sampling_grid(sample.time, setup_.sampling_interval_ns), sample.key};
    // Many threads' samples of one tick and activity come one after another.
    if (last_row_ && sum_keys_[last_row_ - 1] == key)
        sum_weights_[last_row_ - 1] += sample.weight;
    else
        last_row_ = add_to_row(thread, key, sample.weight);
    if (++taken_ < ReaderLivesSink::kChunkSamples) return;
    push_sums(thread);
    Item full;
    full.thread = thread;
    full.kind = Kind::folded_chunk_full;
    push(full);
}

std::uint32_t ReaderThreadLives::add_to_row(eventlog::ThreadId thread, const SumKey& key, std::uint64_t weight) {
    std::uint32_t& slot = sum_slot(key);
    if (slot != 0) {
        sum_weights_[slot - 1] += weight;
        return slot;
    }
    // A key the chunk holds was seen before: only a new row may be a new key.
    if (seen_.try_emplace(key.key, static_cast<std::uint32_t>(seen_.size())).second) {
        Item item;
        item.thread = thread;
        item.kind = Kind::folded_activity;
        item.key = key.key;
        push(item);
    }
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

std::uint32_t& ReaderThreadLives::sum_slot(const SumKey& key) {
    const std::size_t mask = sum_slots_.size() - 1;
    for (std::size_t at = SumKeyHash{}(key)&mask;; at = (at + 1) & mask) {
        std::uint32_t& slot = sum_slots_[at];
        if (slot == 0 || sum_keys_[slot - 1] == key) return slot;
    }
}

void ReaderThreadLives::push_sums(eventlog::ThreadId thread) {
    if (!sum_keys_.empty()) {
        Item item;
        item.thread = thread;
        item.kind = Kind::folded_sums;
        item.time = out_->sums.size();
        item.count = sum_keys_.size();
        for (std::size_t i = 0; i < sum_keys_.size(); ++i)
            out_->sums.push_back(SumRow{sum_keys_[i].time, sum_weights_[i], seen_.find(sum_keys_[i].key)->second});
        push(item);
    }
    if (!sum_keys_.empty()) std::fill(sum_slots_.begin(), sum_slots_.end(), 0);
    sum_keys_.clear();
    sum_weights_.clear();
    last_row_ = 0;
    taken_ = 0;
}

void ReaderThreadLives::note_diagnostics() {
    for (std::size_t i = 0; i < kDiagnosticCount; ++i) {
        const auto d = static_cast<Diagnostic>(i);
        if (const std::uint64_t n = found_.count(d) - noted_.count(d)) {
            Item item;
            item.kind = Kind::diagnostic;
            item.diagnostic = d;
            item.count = n;
            push(item);
        }
    }
    noted_ = found_;
}

std::size_t ReaderThreadLives::deliver(const eventlog::WorkerOutput& out, std::size_t end, bool from_start) {
    const std::vector<Item>& items = static_cast<const Output&>(out).items;
    if (from_start) delivered_ = 0;
    for (; delivered_ < items.size() && items[delivered_].index < end; ++delivered_) {
        const Item& item = items[delivered_];
        if (item.flush) {
            flushes_.push_back(item);
        } else if (item.at_end) {
            ends_.push_back(item);
            if (item.kind == Kind::folded_sums) {  // its rows kept with it
                const auto& sums = static_cast<const Output&>(out).sums;
                ends_.back().time = end_sums_.size();
                end_sums_.insert(end_sums_.end(), sums.begin() + static_cast<std::ptrdiff_t>(item.time),
                                 sums.begin() + static_cast<std::ptrdiff_t>(item.time + item.count));
            }
        } else {
            deliver(item, static_cast<const Output&>(out).sums);
        }
    }
    return delivered_ < items.size() ? items[delivered_].index : static_cast<std::size_t>(-1);
}

void ReaderThreadLives::deliver(const Item& item, const std::vector<SumRow>& sums) {
    switch (item.kind) {
        case Kind::diagnostic: diagnostics_.add(item.diagnostic, item.count); break;
        case Kind::own_sample:
            sink_.own_sample(item.thread, Sample<ThreadActivity>{item.time, item.cpu_delta_ns, item.count, item.key});
            break;
        case Kind::running_span: sink_.running_span(item.track, item.time, item.end, item.key.cap); break;
        case Kind::running_merged: sink_.running_merged(item.track, item.merged); break;
        case Kind::stopped_span: sink_.stopped_span(item.track, item.time, item.end, item.key); break;
        case Kind::stopped_merged: sink_.stopped_merged(item.track, item.merged, item.status); break;
        case Kind::folded_activity:
            keys_.push_back(item.key);
            sink_.folded_activity(item.key);
            break;
        case Kind::folded_sums:
            for (std::size_t i = item.time; i < item.time + item.count; ++i)
                sink_.folded_sum(sums[i].time, keys_[sums[i].key], sums[i].weight);
            break;
        case Kind::folded_chunk_full: sink_.folded_chunk_full(); break;
    }
}

void ReaderThreadLives::deliver_ends_before(std::optional<eventlog::ThreadId> id) {
    // In id order as finish() found them; its diagnostics and the last sums come last.
    for (; ends_at_ < ends_.size(); ++ends_at_) {
        const Item& item = ends_[ends_at_];
        if (id && item.kind != Kind::diagnostic && item.thread >= *id) return;
        deliver(item, end_sums_);
    }
}

void ReaderThreadLives::deliver_flush_of(std::size_t track) {
    for (; flushes_at_ < flushes_.size() && flushes_[flushes_at_].track <= track; ++flushes_at_)
        deliver(flushes_[flushes_at_], end_sums_);
}

}  // namespace el2fx::analysis

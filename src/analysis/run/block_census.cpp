#include "analysis/run/block_census.hpp"

#include <algorithm>
#include <functional>
#include <span>

#include "analysis/run/block_combiner.hpp"

namespace el2fx::run {

BlockCensus::BlockCensus(bool include_env, CensusLimits limits, Rewrite rewrite, bool rewrites_texts)
    : include_env_(include_env),
      limits_(limits),
      rewrite_(rewrite ? std::move(rewrite)
                       : Rewrite([](const eventlog::Event& e) -> const eventlog::Event& { return e; })),
      rewrites_texts_(rewrites_texts),
      spares_(std::make_unique<blocks::SpareVectors>()),
      combiner_(std::make_unique<blocks::Combiner>(limits_, rewrite_, *spares_)) {
    // The records of what the census pass handles, as it declares them; the rest only counted.
    reading_.given = RunCensusCollector::interests().handles;
    // Only a capability's blocks hold segments: the global block, which the RTS writes last
    // but began first, holds the frontier back for none.
    reading_.found = [this](std::span<const eventlog::BlockReading::Start> starts) {
        blocks::Combiner& c = *combiner_;
        c.starts.clear();
        for (const eventlog::BlockReading::Start& s : starts) c.starts.push_back(s.cap ? s.time : 0);
        c.frontier_after.assign(starts.size(), 0);
        std::uint64_t earliest = ~std::uint64_t{0};
        for (std::size_t i = starts.size(); i-- > 0;) {
            if (starts[i].cap) earliest = std::min(earliest, starts[i].time);
            c.frontier_after[i] = earliest;
        }
    };
    reading_.reader = [this] { return blocks::make_reader(*this); };
}

BlockCensus::~BlockCensus() = default;

void BlockCensus::put(std::unique_ptr<blocks::Share> share) {
    bool wait = false;
    {
        std::lock_guard lock(handed_mutex_);
        handed_.push_back(std::move(share));
        wait = handed_.size() > kMaxHanded;
    }
    // Whoever holds the combiner takes every share handed so far, then looks again once it let
    // go: a share handed while it was letting go is not left behind.
    for (;;) {
        std::unique_lock lock(mutex_, std::defer_lock);
        if (wait)
            lock.lock();
        else if (!lock.try_lock())
            return;
        combine_handed();
        lock.unlock();
        std::lock_guard handed(handed_mutex_);
        if (handed_.empty()) return;
        wait = false;
    }
}

void BlockCensus::combine_handed() {
    for (;;) {
        std::unique_ptr<blocks::Share> share;
        {
            std::lock_guard lock(handed_mutex_);
            if (handed_.empty()) return;
            share = std::move(handed_.front());
            handed_.erase(handed_.begin());
        }
        combiner_->put(std::move(share));
        if (combiner_->failed) decline(combiner_->failed);
    }
}

std::optional<RunCensus> BlockCensus::finish() {
    using namespace eventlog;
    using namespace blocks;
    Combiner& c = *combiner_;
    combine_handed();  // none should be left: the readers are done
    spares_->release();
    if (declined_) return std::nullopt;
    if (c.next == 0 || c.next != c.starts.size() || !c.waiting.empty()) return declined("blocks missing");
    c.fold(~std::uint64_t{0});
    c.tell_catalog(~std::uint64_t{0});
    if (c.failed) return declined(c.failed);

    RunCensus census;
    DetailCensus& detail = census.detail;
    detail = std::move(c.detail);

    // The run's facts: every record counted, the first one's time, the facts' records in order.
    RunInfoCollector run(include_env_);
    CountedRecords counted;
    counted.by_tag = c.by_tag;
    counted.latest_time = c.max_time;
    Event first;
    first.time = c.min_time;
    first.tag = c.first_tag;
    run.count(first);
    --counted.by_tag[c.first_tag];
    run.count(counted);
    ++counted.by_tag[c.first_tag];  // the whole log's counts, again
    for (const auto& [cap, state] : c.caps) run.see_capability(cap);
    std::vector<KeptRecord>& kept = c.kept.records;
    std::sort(kept.begin(), kept.end(), [](const KeptRecord& a, const KeptRecord& b) { return a.key < b.key; });
    for (const KeptRecord& r : kept)
        if (RunInfoCollector::tells(r.tag)) run.note(rewrite_(decoded(r, c.kept)));
    census.run = run.info();
    const std::uint64_t now = census.run.last_time;  // the census's clock at the end

    // Spans still open at the end of the log.
    for (auto& [cap, s] : c.caps) {
        census.capability_starts.emplace(cap, s.start);
        if (s.running_thread) detail.running.add(now - s.running_since);
        if (s.idle_since) detail.idle.add(now - *s.idle_since);
        if (s.gc_since) detail.gc.add(now - *s.gc_since);
        if (s.run_on) c.add_running(s.run_thread, now - s.run_since);
    }
    detail.capabilities = c.detail_caps;
    census.spark_series = std::move(c.spark_series);
    c.threads.for_each([&](ThreadId, const ThreadSum& t) {
        if (t.live) {  // stopped to the end
            if (!t.running) detail.stopped.add(now - t.stopped_since);
            detail.runs_by_thread.push_back(t.runs);
        }
    });
    std::sort(detail.runs_by_thread.begin(), detail.runs_by_thread.end(), std::greater<>());

    // The catalog, told everything; the running time of its threads not dropped.
    c.catalog.finish();
    census.threads = std::move(c.catalog);
    census.running_by_ordinal = std::move(c.running_by_ordinal);
    census.running_by_ordinal.resize(census.threads.threads().size(), 0);
    c.threads.for_each([&](ThreadId id, const ThreadSum& t) {
        if (std::optional<std::uint32_t> i = census.threads.ordinal(id)) census.running_by_ordinal[*i] = t.running_ns;
    });
    census.running_by_ordinal.shrink_to_fit();

    // The rest of the detail: what the events' numbers tell.
    const auto n = [&](std::uint16_t tag) { return counted.by_tag[tag]; };
    detail.moments = n(MigrateThread::tag) + n(WakeupThread::tag);
    detail.thread_events = n(CreateThread::tag) + n(ThreadLabel::tag);
    detail.messages = n(UserMessage::tag) + n(UserMarker::tag);
    detail.message_bytes = c.message_bytes;
    for (const KeptRecord& r : kept) {
        if (r.tag != UserMessage::tag && r.tag != UserMarker::tag) continue;
        const Event& e = rewrite_(decoded(r, c.kept));
        if (const auto* p = e.as<UserMessage>()) detail.message_bytes += p->message.bytes.size();
        if (const auto* p = e.as<UserMarker>()) detail.message_bytes += p->marker.bytes.size();
    }
    std::uint64_t told = 0;
    for (std::size_t tag = 0; tag < counted.by_tag.size(); ++tag)
        if (DetailCensusCollector::tells_apart(static_cast<std::uint16_t>(tag))) told += counted.by_tag[tag];
    detail.other_events = census.run.events - told;
    return census;
}

}  // namespace el2fx::run

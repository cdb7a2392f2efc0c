#include "analysis/run/thread_catalog.hpp"

#include <algorithm>

#include "eventlog/event_types.hpp"
#include "util/error.hpp"
#include "util/utf8.hpp"

namespace el2fx::run {

std::uint32_t ThreadCatalog::add(eventlog::ThreadId id, std::uint64_t time) {
    const auto i = static_cast<std::uint32_t>(threads_.size());
    index_.try_emplace(id, i);
    threads_.push_back(ThreadFacts{});
    threads_.back().id = id;
    threads_.back().first_seen = time;
    return i;
}

void ThreadCatalog::forget_unless(const std::vector<bool>& keep) {
    if (finished_) throw Error("thread catalog: forgetting after finish()");
    // The kept threads move down in place: storage grown once is reused, not faulted in anew
    // by each round (a log of millions of short-lived threads forgets dozens of times).
    std::size_t kept_count = 0;
    util::IdMap<std::uint32_t> index;  // rebuilt: the old one's table spans every id ever seen
    std::vector<LabelChange> labels;
    std::vector<std::uint32_t> previous;
    std::string bytes;
    std::vector<std::uint32_t> chain;
    // The earliest forgotten thread: an earlier round's (its place counted again among the
    // kept) or this round's first, whichever comes first.
    std::optional<std::uint32_t> earlier, first_now;
    for (std::size_t i = 0; i < threads_.size(); ++i) {
        const auto kept = static_cast<std::uint32_t>(kept_count);
        if (first_forgotten_place_ && *first_forgotten_place_ == i) earlier = kept;
        if (i >= keep.size() || !keep[i]) {
            ++forgotten_;
            if (!first_now) first_now = kept;
            continue;
        }
        ThreadFacts t = threads_[i];
        if (t.labelled()) {  // its labels, oldest first, chained again in the new table
            chain.clear();
            for (std::uint32_t l = t.last_label_; l != ThreadFacts::kNoLabel; l = previous_label_[l]) chain.push_back(l);
            std::uint32_t before = ThreadFacts::kNoLabel;
            for (auto l = chain.rbegin(); l != chain.rend(); ++l) {
                const LabelChange& old = labels_[*l];
                const auto offset = static_cast<std::uint32_t>(bytes.size());
                bytes.append(text(old));
                labels.push_back({old.time, offset, old.size});
                previous.push_back(before);
                before = static_cast<std::uint32_t>(labels.size() - 1);
            }
            t.last_label_ = before & ThreadFacts::kNoLabel;
        }
        index.try_emplace(t.id, kept);
        threads_[kept_count++] = t;
    }
    if (first_forgotten_place_ && !earlier) earlier = static_cast<std::uint32_t>(kept_count);  // after them all
    if (earlier || first_now) first_forgotten_place_ = std::min(earlier.value_or(UINT32_MAX), first_now.value_or(UINT32_MAX));
    threads_.resize(kept_count);
    index_ = std::move(index);
    labels_ = std::move(labels);
    previous_label_ = std::move(previous);
    label_bytes_ = std::move(bytes);
}

void ThreadCatalog::finish() {
    if (finished_) return;
    std::vector<LabelChange> contiguous;
    contiguous.reserve(labels_.size());
    for (ThreadFacts& t : threads_) {
        if (!t.labelled()) continue;
        const std::size_t first = contiguous.size();
        for (std::uint32_t i = t.last_label_; i != ThreadFacts::kNoLabel; i = previous_label_[i])
            contiguous.push_back(labels_[i]);
        std::reverse(contiguous.begin() + static_cast<std::ptrdiff_t>(first), contiguous.end());
        t.last_label_ = static_cast<std::uint32_t>(contiguous.size() - 1) & ThreadFacts::kNoLabel;
        label_ends_.push_back(t.last_label_);
    }
    labels_ = std::move(contiguous);
    previous_label_ = {};
    threads_.shrink_to_fit();
    label_ends_.shrink_to_fit();
    label_bytes_.shrink_to_fit();
    finished_ = true;
}

void ThreadCatalog::require_finished() const {
    if (!finished_) throw Error("thread catalog: label queries need finish() first");
}

std::pair<std::uint32_t, std::uint32_t> ThreadCatalog::label_range(const ThreadFacts& t) const {
    const std::uint32_t last = t.last_label_;
    auto it = std::lower_bound(label_ends_.begin(), label_ends_.end(), last);
    return {it == label_ends_.begin() ? 0 : *std::prev(it) + 1, last};
}

std::string_view ThreadCatalog::label(const ThreadFacts& t) const {
    return t.labelled() ? text(labels_[t.last_label_]) : std::string_view();
}

std::string_view ThreadCatalog::label_at(const ThreadFacts& t, std::uint64_t time) const {
    require_finished();
    if (!t.labelled()) return {};
    const auto [first, last] = label_range(t);
    const auto begin = labels_.begin() + first, end = labels_.begin() + last + 1;
    auto it = std::upper_bound(begin, end, time, [](std::uint64_t at, const LabelChange& l) { return at < l.time; });
    return it == begin ? std::string_view() : text(*std::prev(it));
}

std::string_view ThreadCatalog::nth_label(const ThreadFacts& t, std::uint32_t n) const {
    require_finished();
    if (!t.labelled()) return {};
    const auto [first, last] = label_range(t);
    return n > last - first ? std::string_view() : text(labels_[first + n]);
}

void ThreadCatalog::handle(const eventlog::Event& event) {
    using namespace eventlog;
    switch (event.tag) {
        case CreateThread::tag:
            if (auto* p = event.as<CreateThread>()) created(p->thread, event.time);
            break;
        case RunThread::tag:
            if (auto* p = event.as<RunThread>()) seen(p->thread, event.time);
            break;
        case StopThread::tag:
            if (auto* p = event.as<StopThread>()) stopped(p->thread, p->status, event.time);
            break;
        case MigrateThread::tag:
            if (auto* p = event.as<MigrateThread>()) seen(p->thread, event.time);
            break;
        case WakeupThread::tag:
            if (auto* p = event.as<WakeupThread>()) seen(p->thread, event.time);
            break;
        case ThreadLabel::tag:
            if (auto* p = event.as<ThreadLabel>()) {
                if (finished_) throw Error("thread catalog: a label after finish()");  // ranges are fixed
                ThreadFacts& t = facts(p->thread, event.time);
                const std::size_t offset = label_bytes_.size();
                utf8::append_sanitized(label_bytes_, p->label.bytes);
                if (label_bytes_.size() > UINT32_MAX || labels_.size() >= ThreadFacts::kNoLabel) {
                    label_bytes_.resize(offset);  // over 4 GB or 2^30 labels: keep the ones we have
                    break;
                }
                const auto index = static_cast<std::uint32_t>(labels_.size());
                labels_.push_back({event.time, static_cast<std::uint32_t>(offset),
                                   static_cast<std::uint32_t>(label_bytes_.size() - offset)});
                previous_label_.push_back(t.last_label_);
                t.last_label_ = index & ThreadFacts::kNoLabel;
            }
            break;
        default: break;
    }
}

bool ThreadMoments::concerns(std::uint16_t tag) {
    using namespace eventlog;
    switch (tag) {
        case CreateThread::tag:
        case StopThread::tag:
        case MigrateThread::tag:
        case WakeupThread::tag:
        case ThreadLabel::tag: return true;
        default: return false;
    }
}

std::optional<ThreadMoment> ThreadMoments::finished(const eventlog::Event& event, eventlog::ThreadId thread) {
    if (!finished_.insert(thread)) return std::nullopt;  // finished again: one moment
    labels_.erase(thread);
    return ThreadMoment{event.time, thread, ThreadMoment::Kind::finished, event.cap.value_or(0), 0, 0};
}

std::optional<ThreadMoment> ThreadMoments::rare_moment(const eventlog::Event& event) {
    using namespace eventlog;
    using Kind = ThreadMoment::Kind;
    const CapNo cap = event.cap.value_or(0);
    if (event.tag == CreateThread::tag) {
        if (auto* p = event.as<CreateThread>()) return ThreadMoment{event.time, p->thread, Kind::created, cap, 0, 0};
    } else if (event.tag == ThreadLabel::tag) {
        if (auto* p = event.as<ThreadLabel>())
            return ThreadMoment{event.time, p->thread, Kind::labelled, cap, 0, labels_[p->thread]++};
    }
    return std::nullopt;
}

}  // namespace el2fx::run

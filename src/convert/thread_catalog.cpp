#include "convert/thread_catalog.hpp"

#include "eventlog/event_types.hpp"
#include "util/utf8.hpp"

namespace el2fx::convert {

const std::string& ThreadFacts::label() const {
    static const std::string none;
    return labels.empty() ? none : labels.back().label;
}

const ThreadFacts* ThreadCatalog::find(eventlog::ThreadId id) const {
    auto it = index_.find(id);
    return it == index_.end() ? nullptr : &threads_[it->second];
}

ThreadFacts& ThreadCatalog::facts(eventlog::ThreadId id, std::uint64_t time) {
    auto [it, inserted] = index_.try_emplace(id, threads_.size());
    if (inserted) {
        threads_.push_back(ThreadFacts{});
        threads_.back().id = id;
        threads_.back().first_seen = time;
    }
    return threads_[it->second];
}

void ThreadCatalog::handle(const eventlog::Event& event) {
    using namespace eventlog;
    switch (event.tag) {
        case CreateThread::tag:
            if (auto* p = event.as<CreateThread>()) {
                ThreadFacts& t = facts(p->thread, event.time);
                t.created = event.time;
                t.created_on = event.cap;
            }
            break;
        case RunThread::tag:
            if (auto* p = event.as<RunThread>()) facts(p->thread, event.time);
            break;
        case StopThread::tag:
            if (auto* p = event.as<StopThread>()) {
                ThreadFacts& t = facts(p->thread, event.time);
                if (p->status == static_cast<std::uint16_t>(StopStatus::ThreadFinished) && !t.finished)
                    t.finished = event.time;
            }
            break;
        case MigrateThread::tag:
            if (auto* p = event.as<MigrateThread>()) facts(p->thread, event.time);
            break;
        case WakeupThread::tag:
            if (auto* p = event.as<WakeupThread>()) facts(p->thread, event.time);
            break;
        case ThreadLabel::tag:
            if (auto* p = event.as<ThreadLabel>()) {
                ThreadFacts& t = facts(p->thread, event.time);
                std::string label;
                utf8::append_sanitized(label, p->label.bytes);
                t.labels.push_back({event.time, std::move(label)});
            }
            break;
        default:
            break;
    }
}

void ThreadMoments::handle(const eventlog::Event& event) {
    using namespace eventlog;
    using Kind = ThreadMoment::Kind;
    CapNo cap = event.cap.value_or(0);
    switch (event.tag) {
        case CreateThread::tag:
            if (auto* p = event.as<CreateThread>()) sink_({event.time, p->thread, Kind::created, cap, 0, 0});
            break;
        case StopThread::tag:
            if (auto* p = event.as<StopThread>();
                p && p->status == static_cast<std::uint16_t>(StopStatus::ThreadFinished)) {
                State& t = threads_[p->thread];
                if (!t.finished) {
                    t.finished = true;
                    sink_({event.time, p->thread, Kind::finished, cap, 0, 0});
                }
            }
            break;
        case MigrateThread::tag:
            if (auto* p = event.as<MigrateThread>()) sink_({event.time, p->thread, Kind::migrated, cap, p->new_cap, 0});
            break;
        case WakeupThread::tag:
            if (auto* p = event.as<WakeupThread>()) sink_({event.time, p->thread, Kind::woken, cap, p->other_cap, 0});
            break;
        case ThreadLabel::tag:
            if (auto* p = event.as<ThreadLabel>())
                sink_({event.time, p->thread, Kind::labelled, cap, 0, threads_[p->thread].labels++});
            break;
        default:
            break;
    }
}

}  // namespace el2fx::convert

#include "window/window_prelude.hpp"

#include <algorithm>

#include "window/synthetic_event.hpp"

namespace el2fx::window {
namespace {

using namespace eventlog;

// Kinds of which only the latest counts.
bool is_latest_kind(std::uint16_t tag) {
    switch (tag) {
        case RtsIdentifier::tag:
        case ProgramArgs::tag:
        case ProgramEnv::tag:
        case ProgramInvocation::tag:
        case Version::tag:
        case OsProcessPid::tag:
        case OsProcessParentPid::tag:
        case WallClockTime::tag:
        case HeapInfoGHC::tag:
        case ProfBegin::tag:
        case HeapProfBegin::tag: return true;
        default: return false;
    }
}

// Kinds that define something until deleted: every one counts.
bool is_definition(std::uint16_t tag) {
    switch (tag) {
        case CapsetCreate::tag:
        case CapsetAssignCap::tag:
        case CapCreate::tag:
        case TaskCreate::tag:
        case HeapProfCostCentre::tag:
        case InfoProv::tag:
        case TickyCounterDef::tag:
        case InternString::tag:
        case PerfName::tag: return true;
        default: return false;
    }
}

// Does `defined` stand for what `deletion` deletes?
bool deletes(const Event& deletion, const Event& defined) {
    if (const auto* d = deletion.as<TaskDelete>()) {
        const auto* t = defined.as<TaskCreate>();
        return t && t->task == d->task;
    }
    if (const auto* d = deletion.as<CapDelete>()) {
        const auto* c = defined.as<CapCreate>();
        return c && c->cap == d->cap;
    }
    if (const auto* d = deletion.as<CapsetRemoveCap>()) {
        const auto* a = defined.as<CapsetAssignCap>();
        return a && a->capset == d->capset && a->cap == d->cap;
    }
    if (const auto* d = deletion.as<CapsetDelete>()) {
        if (const auto* c = defined.as<CapsetCreate>()) return c->capset == d->capset;
        if (const auto* a = defined.as<CapsetAssignCap>()) return a->capset == d->capset;
    }
    return false;
}

Event restamped(const Event& event, std::uint64_t time) {
    Event e = event;
    e.synthetic = true;
    if (auto* wall = std::get_if<WallClockTime>(&e.payload); wall && time >= event.time) {
        // The same instant named later: the clock moves with the stamp.
        const std::uint64_t ns = wall->nsec + (time - event.time);
        wall->sec += ns / 1'000'000'000ull;
        wall->nsec = static_cast<std::uint32_t>(ns % 1'000'000'000ull);
    }
    e.time = time;
    return e;
}

}  // namespace

std::uint64_t Baselines::allocated_since(CapNo cap, std::uint64_t total) const {
    const std::uint64_t before = cap < allocated.size() ? allocated[cap] : 0;
    return total >= before ? total - before : total;  // a counter that went back started again
}

SparkCounters Baselines::sparks_since(CapNo cap, const SparkCounters& total) const {
    if (cap >= sparks.size() || !sparks[cap]) return total;
    const SparkCounters& b = *sparks[cap];
    auto since = [](std::uint64_t now, std::uint64_t before) { return now >= before ? now - before : now; };
    SparkCounters s = total;
    s.created = since(total.created, b.created);
    s.dud = since(total.dud, b.dud);
    s.overflowed = since(total.overflowed, b.overflowed);
    s.converted = since(total.converted, b.converted);
    s.gcd = since(total.gcd, b.gcd);
    s.fizzled = since(total.fizzled, b.fizzled);
    return s;
}

const TagSet& WindowPrelude::wanted(bool with_messages) {
    static const auto make = [](bool messages) {
        TagSet s;
        for (std::uint32_t tag = 0; tag < s.size(); ++tag)
            if (is_latest_kind(static_cast<std::uint16_t>(tag)) || is_definition(static_cast<std::uint16_t>(tag)))
                s.set(tag);
        for (std::uint16_t tag : {RunThread::tag, StopThread::tag, MigrateThread::tag, ThreadLabel::tag,
                                  HeapAllocated::tag, SparkCounters::tag, HeapSize::tag, HeapLive::tag,
                                  BlocksSize::tag, TaskDelete::tag, CapDelete::tag, CapsetRemoveCap::tag,
                                  CapsetDelete::tag})
            s.set(tag);
        for (std::uint16_t tag : CollectionAtStart::kTags) s.set(tag);
        if (messages) {
            s.set(UserMarker::tag);
            s.set(UserMessage::tag);
        }
        return s;
    };
    static const TagSet plain = make(false), messages = make(true);
    return with_messages ? messages : plain;
}

WindowPrelude::CapabilityState& WindowPrelude::capability(CapNo cap) {
    if (cap >= capabilities_.size()) capabilities_.resize(std::size_t{cap} + 1);
    capabilities_[cap].seen = true;
    return capabilities_[cap];
}

void WindowPrelude::handle(const Event& event) {
    if (event.cap) capability(*event.cap);
    gc_.handle(event);
    const CapNo cap = event.cap.value_or(0);
    switch (event.tag) {
        case RunThread::tag:
            if (const auto* p = event.as<RunThread>(); p && event.cap) {
                ThreadState& t = threads_[p->thread];
                t.phase = ThreadState::Phase::running;
                t.cap = cap;
                capability(cap).running = p->thread;
            }
            return;
        case StopThread::tag:
            if (const auto* p = event.as<StopThread>(); p && event.cap) {
                CapabilityState& c = capability(cap);
                if (c.running == p->thread) c.running.reset();
                if (p->status == static_cast<std::uint16_t>(StopStatus::ThreadFinished)) {
                    threads_.erase(p->thread);
                    return;
                }
                ThreadState& t = threads_[p->thread];
                t.phase = ThreadState::Phase::stopped;
                t.cap = cap;
                t.status = p->status;
                t.blocker = p->blocker;
            }
            return;
        case MigrateThread::tag:
            if (const auto* p = event.as<MigrateThread>()) {
                auto it = threads_.find(p->thread);
                if (it != threads_.end() && it->second.phase == ThreadState::Phase::stopped) it->second.cap = p->new_cap;
            }
            return;
        case ThreadLabel::tag:
            if (const auto* p = event.as<ThreadLabel>()) threads_[p->thread].label.emplace(event);
            return;
        case HeapAllocated::tag:
            if (const auto* p = event.as<HeapAllocated>()) {
                if (cap >= baselines_.allocated.size()) baselines_.allocated.resize(std::size_t{cap} + 1, 0);
                baselines_.allocated[cap] = p->alloc_bytes;
            }
            return;
        case SparkCounters::tag:
            if (const auto* p = event.as<SparkCounters>(); p && event.cap) {
                if (cap >= baselines_.sparks.size()) baselines_.sparks.resize(std::size_t{cap} + 1);
                baselines_.sparks[cap] = *p;
            }
            return;
        case HeapSize::tag:
        case HeapLive::tag:
        case BlocksSize::tag: {
            auto same = std::find_if(levels_.begin(), levels_.end(),
                                     [&](const OwnedEvent& l) { return l.event().tag == event.tag; });
            if (same != levels_.end())
                *same = OwnedEvent(event);
            else
                levels_.emplace_back(event);
            return;
        }
        case TaskDelete::tag:
        case CapDelete::tag:
        case CapsetRemoveCap::tag:
        case CapsetDelete::tag: forget(event); return;
        default: break;
    }
    if (is_latest_kind(event.tag) || is_definition(event.tag)) define(event);
}

void WindowPrelude::define(const Event& event) {
    if (is_definition(event.tag)) {
        definitions_.emplace_back(event);
        return;
    }
    auto same = std::find_if(latest_.begin(), latest_.end(),
                             [&](const OwnedEvent& l) { return l.event().tag == event.tag; });
    if (same != latest_.end())
        *same = OwnedEvent(event);
    else
        latest_.emplace_back(event);
}

void WindowPrelude::forget(const Event& event) {
    std::erase_if(definitions_, [&](const OwnedEvent& d) { return deletes(event, d.event()); });
}

std::vector<Event> WindowPrelude::state_at(std::uint64_t from) {
    std::vector<Event> out;
    for (const OwnedEvent& d : latest_) out.push_back(restamped(d.event(), from));
    for (const OwnedEvent& d : definitions_) out.push_back(restamped(d.event(), from));
    for (std::size_t c = 0; c < capabilities_.size(); ++c) {
        if (!capabilities_[c].seen) continue;
        const auto cap = static_cast<CapNo>(c);
        out.push_back(synthetic(from, cap, BlockMarker{0, from, cap}));
    }
    for (const OwnedEvent& l : levels_) out.push_back(restamped(l.event(), from));
    for (const auto& [id, t] : threads_)
        if (t.label) out.push_back(restamped(t.label->event(), from));
    // Stopped threads before anything runs: a capability's mutator sees no stop of
    // another thread than the one it runs.
    for (const auto& [id, t] : threads_)
        if (t.phase == ThreadState::Phase::stopped) out.push_back(synthetic(from, t.cap, StopThread{id, t.status, t.blocker}));
    gc_.state_at(from, out);
    for (std::size_t c = 0; c < capabilities_.size(); ++c)
        if (capabilities_[c].running && !gc_.in_gc(static_cast<CapNo>(c)))
            out.push_back(synthetic(from, static_cast<CapNo>(c), RunThread{*capabilities_[c].running}));
    return out;
}

}  // namespace el2fx::window

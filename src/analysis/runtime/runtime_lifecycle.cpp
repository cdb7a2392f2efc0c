#include "analysis/runtime/runtime_lifecycle.hpp"

namespace el2fx::runtime {

void CapabilityLifecycle::disabled(eventlog::CapNo cap, std::uint64_t time) { open_.try_emplace(cap, time); }

void CapabilityLifecycle::enabled(eventlog::CapNo cap, std::uint64_t time) {
    auto it = open_.find(cap);
    if (it == open_.end()) return;
    spans_.push_back(DisabledSpan{cap, it->second, time, true});
    open_.erase(it);
}

void CapabilityLifecycle::deleted(eventlog::CapNo cap, std::uint64_t time) { enabled(cap, time); }

void CapabilityLifecycle::finish(std::uint64_t end) {
    for (const auto& [cap, since] : open_) spans_.push_back(DisabledSpan{cap, since, end < since ? since : end, false});
    open_.clear();
}

void TaskTracker::created(std::uint64_t task, eventlog::CapNo cap, std::uint64_t os_tid, std::uint64_t time) {
    tasks_.insert_or_assign(task, TaskInfo{task, cap, os_tid, time});
}

void TaskTracker::migrated(std::uint64_t task, eventlog::CapNo to) {
    auto it = tasks_.find(task);
    if (it != tasks_.end()) it->second.cap = to;
}

std::optional<TaskInfo> TaskTracker::deleted(std::uint64_t task) {
    auto it = tasks_.find(task);
    if (it == tasks_.end()) return std::nullopt;
    TaskInfo info = it->second;
    tasks_.erase(it);
    return info;
}

const TaskInfo* TaskTracker::find(std::uint64_t task) const {
    auto it = tasks_.find(task);
    return it == tasks_.end() ? nullptr : &it->second;
}

std::optional<eventlog::CapNo> TaskTracker::cap_of_os_thread(std::uint64_t os_tid) const {
    const TaskInfo* best = nullptr;
    for (const auto& [id, t] : tasks_)
        if (t.os_tid == os_tid &&
            (!best || t.created > best->created || (t.created == best->created && t.task > best->task)))
            best = &t;
    if (!best) return std::nullopt;
    return best->cap;
}

}  // namespace el2fx::runtime

// Capabilities and tasks (OS threads) over time.
//
// CapabilityLifecycle: CAP_DISABLE … CAP_ENABLE (or CAP_DELETE) is a span during which
// the capability is disabled (`setNumCapabilities` lowering the count); a span still open
// at the end runs to the end. A second disable while disabled and an enable while
// enabled change nothing.
//
// TaskTracker: which capability each task (OS thread) is on, from TASK_CREATE and
// TASK_MIGRATE, so TASK_DELETE (which names no capability) and OS thread ids can be
// placed on a capability.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <unordered_map>
#include <vector>

#include "eventlog/event_types.hpp"

namespace el2fx::runtime {

struct DisabledSpan {
    eventlog::CapNo cap = 0;
    std::uint64_t start = 0, end = 0;
    bool closed = true;  // false: still disabled at the end of the log
};

class CapabilityLifecycle {
public:
    void disabled(eventlog::CapNo cap, std::uint64_t time);
    void enabled(eventlog::CapNo cap, std::uint64_t time);
    void deleted(eventlog::CapNo cap, std::uint64_t time);
    // Closes spans still open at `end`.
    void finish(std::uint64_t end);

    // Spans in the order they ended.
    const std::vector<DisabledSpan>& disabled_spans() const { return spans_; }
    bool is_disabled(eventlog::CapNo cap) const { return open_.count(cap) > 0; }

private:
    std::map<eventlog::CapNo, std::uint64_t> open_;  // disabled since
    std::vector<DisabledSpan> spans_;
};

struct TaskInfo {
    std::uint64_t task = 0;
    eventlog::CapNo cap = 0;   // where it is now
    std::uint64_t os_tid = 0;  // kernel thread id
    std::uint64_t created = 0;
};

class TaskTracker {
public:
    void created(std::uint64_t task, eventlog::CapNo cap, std::uint64_t os_tid, std::uint64_t time);
    void migrated(std::uint64_t task, eventlog::CapNo to);
    // Forgets the task; returns what was known of it.
    std::optional<TaskInfo> deleted(std::uint64_t task);
    const TaskInfo* find(std::uint64_t task) const;
    // The capability of the live task running on this OS thread, if any (the latest
    // created when several share one).
    std::optional<eventlog::CapNo> cap_of_os_thread(std::uint64_t os_tid) const;
    std::size_t live() const { return tasks_.size(); }

private:
    std::unordered_map<std::uint64_t, TaskInfo> tasks_;
};

}  // namespace el2fx::runtime

#include "fxprof/thread_order.hpp"

#include <algorithm>
#include <set>

#include "fxprof/profile.hpp"

namespace el2fx::fxprof {

std::vector<bool> threads_shown_at_first(std::span<const ThreadSlot> threads,
                                         std::span<const std::uint32_t> initially_visible) {
    const std::size_t n = threads.size();
    if (initially_visible.empty()) return std::vector<bool>(n, true);
    std::vector<bool> shown(n, false);
    std::set<std::string_view> shown_pids;  // a handful of processes
    for (std::uint32_t i : initially_visible) {
        if (i >= n) continue;
        shown[i] = true;
        shown_pids.insert(threads[i].pid);
    }
    for (std::size_t i = 0; i < n; ++i)
        if (threads[i].is_main && shown_pids.count(threads[i].pid)) shown[i] = true;
    return shown;
}

std::vector<std::uint32_t> shown_first_order(const std::vector<bool>& shown) {
    std::vector<std::uint32_t> order;
    order.reserve(shown.size());
    for (std::size_t i = 0; i < shown.size(); ++i)
        if (shown[i]) order.push_back(static_cast<std::uint32_t>(i));
    for (std::size_t i = 0; i < shown.size(); ++i)
        if (!shown[i]) order.push_back(static_cast<std::uint32_t>(i));
    return order;
}

std::vector<std::uint32_t> thread_write_order(const Profile& profile) {
    const auto& threads = profile.threads();
    std::vector<ThreadSlot> slots;
    slots.reserve(threads.size());
    for (const Thread& t : threads) slots.push_back(ThreadSlot{profile.processes()[t.process.index()].pid, t.is_main});
    std::vector<std::uint32_t> visible;
    visible.reserve(profile.meta().initial_visible_threads.size());
    for (ThreadHandle h : profile.meta().initial_visible_threads) visible.push_back(h.index());
    return shown_first_order(threads_shown_at_first(slots, visible));
}

std::int64_t shown_prefix_length(const std::vector<bool>& shown) {
    const auto first_hidden = std::find(shown.begin(), shown.end(), false);
    if (std::find(first_hidden, shown.end(), true) != shown.end()) return -1;
    return first_hidden - shown.begin();
}

}  // namespace el2fx::fxprof

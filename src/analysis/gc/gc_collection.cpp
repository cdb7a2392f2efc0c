#include "analysis/gc/gc_collection.hpp"

#include <algorithm>

namespace el2fx::gc {

std::optional<double> GcStats::seed_work_balance() const {
    if (par_n_threads <= 1 || par_max_copied == 0) return std::nullopt;
    // total/max is 1 when one thread copied everything and n when all copied equally.
    double ratio = static_cast<double>(par_tot_copied) / static_cast<double>(par_max_copied);
    double balance = (ratio - 1.0) / static_cast<double>(par_n_threads - 1);
    return std::clamp(balance, 0.0, 1.0);
}

std::optional<double> GcStats::balanced_ratio() const {
    if (!par_balanced_copied || copied == 0) return std::nullopt;
    return static_cast<double>(*par_balanced_copied) / static_cast<double>(copied);
}

const GcParticipation* GcCollection::participation(CapNo cap) const {
    for (const GcParticipation& p : caps)
        if (p.cap == cap) return &p;
    return nullptr;
}

const GcParticipation* GcCollection::initiator() const {
    return initiating_cap ? participation(*initiating_cap) : nullptr;
}

std::optional<std::uint64_t> GcCollection::runtime_pause() const {
    const GcParticipation* p = initiator();
    if (!p || !p->end) return std::nullopt;
    return *p->end - p->start;
}

std::optional<std::uint64_t> GcCollection::sync_duration() const {
    if (!request) return std::nullopt;
    const GcParticipation* p = initiator();
    if (!p) p = participation(request->cap);
    if (!p || p->start < request->time) return std::nullopt;
    return p->start - request->time;
}

std::uint64_t GcCollection::first_start() const {
    std::uint64_t first = UINT64_MAX;
    for (const GcParticipation& p : caps) first = std::min(first, p.start);
    if (first == UINT64_MAX)
        first = global_sync_time ? *global_sync_time
                : stats_time     ? *stats_time
                : request        ? request->time
                                 : 0;
    return first;
}

std::optional<std::uint64_t> GcCollection::last_end() const {
    std::uint64_t last = 0;
    for (const GcParticipation& p : caps) {
        if (!p.end) return std::nullopt;
        last = std::max(last, *p.end);
    }
    if (caps.empty()) return std::nullopt;
    return last;
}

std::optional<double> GcCollection::average_cap_pause() const {
    std::uint64_t sum = 0, n = 0;
    for (const GcParticipation& p : caps)
        if (p.end) sum += p.pause(), ++n;
    if (n == 0) return std::nullopt;
    return static_cast<double>(sum) / static_cast<double>(n);
}

std::optional<std::uint64_t> GcCollection::longest_cap_pause() const {
    std::optional<std::uint64_t> longest;
    for (const GcParticipation& p : caps)
        if (p.end) longest = std::max(longest.value_or(0), p.pause());
    return longest;
}

}  // namespace el2fx::gc

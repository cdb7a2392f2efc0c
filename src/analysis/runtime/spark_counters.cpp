#include "analysis/runtime/spark_counters.hpp"

#include <algorithm>

namespace el2fx::runtime {

std::string_view spark_counter_label(SparkCounter counter) {
    switch (counter) {
        case SparkCounter::created: return "created";
        case SparkCounter::converted: return "converted";
        case SparkCounter::overflowed: return "overflowed";
        case SparkCounter::dud: return "dud";
        case SparkCounter::gcd: return "GC'd";
        case SparkCounter::fizzled: return "fizzled";
        case SparkCounter::pool: return "pool size";
    }
    return "?";
}

bool spark_counter_is_cumulative(SparkCounter counter) { return counter != SparkCounter::pool; }

SparkCounts spark_counts(const eventlog::SparkCounters& e) {
    SparkCounts c{};
    auto set = [&](SparkCounter k, std::uint64_t v) { c[static_cast<std::size_t>(k)] = v; };
    set(SparkCounter::created, e.created);
    set(SparkCounter::converted, e.converted);
    set(SparkCounter::overflowed, e.overflowed);
    set(SparkCounter::dud, e.dud);
    set(SparkCounter::gcd, e.gcd);
    set(SparkCounter::fizzled, e.fizzled);
    set(SparkCounter::pool, e.remaining);
    return c;
}

void SparkCounterCollector::add(eventlog::CapNo cap, std::uint64_t time, const eventlog::SparkCounters& event) {
    caps_[cap].push_back(SparkCounterSample{time, spark_counts(event)});
}

bool SparkCounterCollector::all_zero(eventlog::CapNo cap, SparkCounter counter) const {
    auto it = caps_.find(cap);
    if (it == caps_.end()) return true;
    return std::all_of(it->second.begin(), it->second.end(),
                       [&](const SparkCounterSample& s) { return value_of(s.counts, counter) == 0; });
}

SparkCounts SparkCounterCollector::totals() const {
    SparkCounts t{};
    for (const auto& [cap, samples] : caps_) {
        if (samples.empty()) continue;
        for (std::size_t i = 0; i < kSparkCounterCount; ++i) t[i] += samples.back().counts[i];
    }
    return t;
}

std::vector<SparkCounterSample> SparkCounterCollector::summed() const {
    struct Item {
        std::uint64_t time;
        eventlog::CapNo cap;
        const SparkCounts* counts;
    };
    std::vector<Item> items;
    for (const auto& [cap, samples] : caps_)
        for (const auto& s : samples) items.push_back({s.time, cap, &s.counts});
    std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.time < b.time; });
    std::map<eventlog::CapNo, SparkCounts> latest;
    SparkCounts sum{};
    std::vector<SparkCounterSample> out;
    for (const Item& i : items) {
        SparkCounts& last = latest[i.cap];
        for (std::size_t k = 0; k < kSparkCounterCount; ++k) sum[k] = sum[k] - last[k] + (*i.counts)[k];
        last = *i.counts;
        if (!out.empty() && out.back().time == i.time) {
            out.back().counts = sum;
        } else {
            out.push_back(SparkCounterSample{i.time, sum});
        }
    }
    return out;
}

}  // namespace el2fx::runtime

#include "analysis/runtime/spark_bursts.hpp"

namespace el2fx::runtime {

std::string_view spark_event_name(SparkEventKind kind) {
    switch (kind) {
        case SparkEventKind::created: return "Spark created";
        case SparkEventKind::dud: return "Spark dud";
        case SparkEventKind::overflowed: return "Spark overflowed";
        case SparkEventKind::run: return "Spark run";
        case SparkEventKind::stolen: return "Spark stolen";
        case SparkEventKind::fizzled: return "Spark fizzled";
        case SparkEventKind::gcd: return "Spark GC'd";
    }
    return "Spark";
}

std::optional<SparkEventKind> spark_event_kind(std::uint16_t tag) {
    using namespace eventlog;
    switch (tag) {
        case SparkCreate::tag: return SparkEventKind::created;
        case SparkDud::tag: return SparkEventKind::dud;
        case SparkOverflow::tag: return SparkEventKind::overflowed;
        case SparkRun::tag: return SparkEventKind::run;
        case SparkSteal::tag: return SparkEventKind::stolen;
        case SparkFizzle::tag: return SparkEventKind::fizzled;
        case SparkGC::tag: return SparkEventKind::gcd;
        default: return std::nullopt;
    }
}

void SparkBurstAggregator::add(eventlog::CapNo cap, std::uint64_t time, SparkEventKind kind,
                               std::optional<eventlog::CapNo> victim) {
    ++events_[static_cast<std::size_t>(kind)];
    Key key{cap, kind, victim ? int{*victim} : -1};
    auto it = open_.find(key);
    if (it != open_.end()) {
        SparkBurst& b = it->second;
        if (max_gap_ns_ > 0 && time >= b.end && time - b.end <= max_gap_ns_) {
            b.end = time;
            ++b.count;
            return;
        }
        bursts_.push_back(b);
        b = SparkBurst{cap, kind, victim, time, time, 1};
        return;
    }
    open_.emplace(key, SparkBurst{cap, kind, victim, time, time, 1});
}

void SparkBurstAggregator::finish() {
    for (auto& [key, burst] : open_) bursts_.push_back(burst);
    open_.clear();
}

}  // namespace el2fx::runtime

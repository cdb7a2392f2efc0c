#include "eventlog/event_stats.hpp"

#include <algorithm>
#include <cstdio>

#include "eventlog/payload_decoder.hpp"

namespace el2fx::eventlog {

void EventStats::on_event(const Event& event) {
    ++events_;
    event_bytes_ += event.size;
    PerTag& t = per_tag_[event.tag];
    ++t.count;
    t.bytes += event.size;
    if (event.tag == BlockMarker::tag) ++blocks_[event.cap];
    first_time_ = std::min(first_time_.value_or(event.time), event.time);
    last_time_ = std::max(last_time_.value_or(event.time), event.time);
}

std::string EventStats::report(std::uint64_t bytes) const {
    std::string out;
    char line[256];
    std::snprintf(line, sizeof line, "bytes: %llu\n", static_cast<unsigned long long>(bytes));
    out += line;
    std::snprintf(line, sizeof line, "declared event types: %zu\n", header_.types().size());
    out += line;
    std::snprintf(line, sizeof line, "events: %llu (%llu bytes)\n", static_cast<unsigned long long>(events_),
                  static_cast<unsigned long long>(event_bytes_));
    out += line;
    std::uint64_t blocks = 0;
    for (const auto& [cap, n] : blocks_) blocks += n;
    out += "blocks: " + std::to_string(blocks);
    if (!blocks_.empty()) {
        out += " (";
        bool first = true;
        for (const auto& [cap, n] : blocks_) {
            if (!first) out += ", ";
            first = false;
            out += (cap ? "cap " + std::to_string(*cap) : std::string("global")) + ": " + std::to_string(n);
        }
        out += ")";
    }
    out += "\n";
    if (first_time_) {
        std::snprintf(line, sizeof line, "time span: %llu ns .. %llu ns (%.6f s)\n",
                      static_cast<unsigned long long>(*first_time_), static_cast<unsigned long long>(*last_time_),
                      static_cast<double>(*last_time_ - *first_time_) / 1e9);
        out += line;
    }
    out += "per event type:\n";
    std::snprintf(line, sizeof line, "  %5s  %-28s %10s %12s\n", "tag", "name", "count", "bytes");
    out += line;
    for (std::size_t tag = 0; tag < per_tag_.size(); ++tag) {
        const PerTag& t = per_tag_[tag];
        if (t.count == 0) continue;
        std::string name(tag_name(static_cast<std::uint16_t>(tag)));
        if (name.empty()) {
            const EventTypeDecl* decl = header_.find(static_cast<std::uint16_t>(tag));
            name = "(unknown) " + (decl ? decl->description : std::string());
            if (name.size() > 28) name.resize(28);
        }
        std::snprintf(line, sizeof line, "  %5zu  %-28s %10llu %12llu\n", tag, name.c_str(),
                      static_cast<unsigned long long>(t.count), static_cast<unsigned long long>(t.bytes));
        out += line;
    }
    return out;
}

}  // namespace el2fx::eventlog

// Counts for `dump --stats`: events and bytes per type, blocks per capability,
// time span. One pass in file order, memory independent of the input's length.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "eventlog/push_decoder.hpp"

namespace el2fx::eventlog {

class EventStats : public EventSink {
public:
    void on_header(const Header& header) override { header_ = header; }
    void on_event(const Event& event) override;

    // A plain-text report; `bytes` is the input length read, `end` says if it ended early.
    std::string report(std::uint64_t bytes) const;

    std::uint64_t events() const { return events_; }
    std::uint64_t count(std::uint16_t tag) const { return per_tag_[tag].count; }

private:
    struct PerTag {
        std::uint64_t count = 0, bytes = 0;
    };
    Header header_;
    std::array<PerTag, 65536> per_tag_{};
    std::map<std::optional<CapNo>, std::uint64_t> blocks_;  // by capability (none: global)
    std::uint64_t events_ = 0, event_bytes_ = 0;
    std::optional<std::uint64_t> first_time_, last_time_;
};

}  // namespace el2fx::eventlog

// The census's repeats (eventlog::RepeatFilter): the records it needs given only while they
// tell it something new, counted in the reader's place otherwise. Declared here, beside the
// census that reads them; the reader only asks.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "eventlog/byte_reader.hpp"
#include "eventlog/counted_records.hpp"
#include "eventlog/event_types.hpp"
#include "util/id_map.hpp"

namespace el2fx::run {

// Wake-ups: once the census met a thread, a wake-up of it is only a moment, and it meets a
// thread at the latest at its earliest wake-up. So a wake-up is counted where one of the same
// thread stamped earlier was given; for up to `limit` threads (the others' are all given).
class WakeupRepeats final : public eventlog::RepeatFilter {
public:
    explicit WakeupRepeats(std::size_t limit) : limit_(limit) {}
    std::uint16_t tag() const override { return eventlog::WakeupThread::tag; }
    std::size_t payload_bytes() const override { return 4; }  // the thread
    bool counts(std::optional<eventlog::CapNo>, const std::uint8_t* payload, std::uint64_t time) override {
        const std::uint32_t thread = eventlog::load_be32(payload);
        if (std::uint64_t* given = earliest_.find(thread)) {
            if (*given < time) return true;
            *given = time;
            return false;
        }
        if (earliest_.size() < limit_) earliest_.try_emplace(thread, time);
        return false;
    }

private:
    util::IdMap<std::uint64_t> earliest_;  // thread -> the earliest time a wake-up of it was given
    std::size_t limit_;
};

// Spark counters: the census asks only which of a capability's series are ever non-zero. So
// one is counted where every field non-zero in it was non-zero in one of the same capability
// given already (the first of each capability is given; none without a capability is read).
class SparkCounterRepeats final : public eventlog::RepeatFilter {
public:
    static constexpr std::size_t kFields = 7;
    std::uint16_t tag() const override { return eventlog::SparkCounters::tag; }
    std::size_t payload_bytes() const override { return 8 * kFields; }
    bool counts(std::optional<eventlog::CapNo> cap, const std::uint8_t* payload, std::uint64_t) override {
        if (!cap) return true;
        std::int16_t fields = 0;
        for (std::size_t i = 0; i < kFields; ++i)
            if (eventlog::load_be64(payload + 8 * i) != 0) fields = static_cast<std::int16_t>(fields | (1 << i));
        if (*cap >= nonzero_.size()) nonzero_.resize(std::size_t{*cap} + 1, -1);
        std::int16_t& known = nonzero_[*cap];
        if (known >= 0 && (fields & ~known) == 0) return true;
        known = static_cast<std::int16_t>(std::max<std::int16_t>(known, 0) | fields);
        return false;
    }

private:
    std::vector<std::int16_t> nonzero_;  // by capability: the fields non-zero in one given; -1: none given
};

}  // namespace el2fx::run

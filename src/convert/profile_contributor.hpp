// One part of the conversion (threads, GC and heap, user events, cost centres, …):
// it sees every event in time order, then adds what it found to the profile.
// Contributors know the profile only through ProfileContext and fxprof::Profile.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "convert/profile_context.hpp"
#include "eventlog/event.hpp"
#include "pass/interests.hpp"

namespace el2fx::convert {

// An event type a contributor does not show, and why (for `convert --stats`).
struct NotShown {
    std::uint16_t tag;
    std::string_view reason;
};

class ProfileContributor : public pass::PassPart {
public:
    virtual std::string_view name() const = 0;
    // Before the first event of the second pass: the tracks exist, so a contributor may add
    // to the profile as events come instead of keeping them for contribute().
    virtual void begin(ProfileContext& /*context*/) {}
    // handle(): every event its interests() hold, in time order (pass::PassPart).
    // After the last event (end: the log's last timestamp).
    virtual void contribute(ProfileContext& context, std::uint64_t end) = 0;
    // The event tags this contributor shows in the profile.
    virtual std::span<const std::uint16_t> shown_tags() const = 0;
};

}  // namespace el2fx::convert

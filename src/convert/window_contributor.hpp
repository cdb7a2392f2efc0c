// A window of the log (--from/--to, --from-marker/--to-marker; src/window): Profile Info's
// "Window" section says that the profile shows only that part of the run, where it was cut,
// and by which markers. Times stay the log's own (0 is the RTS's start, as `dump` shows).
#pragma once

#include "convert/profile_contributor.hpp"

namespace el2fx::convert {

class WindowContributor final : public ProfileContributor {
public:
    std::string_view name() const override { return "window"; }
    void begin(ProfileContext& context) override;
    void handle(const eventlog::Event&) override {}
    pass::Interests interests() const override { return {}; }
    void contribute(ProfileContext&, std::uint64_t) override {}
    std::span<const std::uint16_t> shown_tags() const override { return {}; }
};

}  // namespace el2fx::convert

// The eventlog header: the event types the file declares, with their sizes.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace el2fx::eventlog {

struct EventTypeDecl {
    std::uint16_t tag = 0;
    std::optional<std::uint16_t> size;  // none: variable-size (a Word16 length precedes the payload)
    std::string description;
};

class Header {
public:
    static constexpr std::int32_t kUndeclared = -2;
    static constexpr std::int32_t kVariable = -1;

    Header();
    void declare(EventTypeDecl decl);

    const std::vector<EventTypeDecl>& types() const { return types_; }
    // kUndeclared, kVariable or the fixed payload size.
    std::int32_t size_of(std::uint16_t tag) const { return tag < kFastTags ? sizes_[tag] : slow_size_of(tag); }
    bool declares(std::uint16_t tag) const { return size_of(tag) != kUndeclared; }
    const EventTypeDecl* find(std::uint16_t tag) const;

private:
    // Every tag GHC writes is below 256: those sizes are one array lookup on the
    // hot path; other tags (possible, never seen) are searched in types_.
    static constexpr std::uint16_t kFastTags = 256;
    std::int32_t slow_size_of(std::uint16_t tag) const;

    std::vector<EventTypeDecl> types_;           // in header order
    std::array<std::int32_t, kFastTags> sizes_;  // by tag
};

}  // namespace el2fx::eventlog

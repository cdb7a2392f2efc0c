// The eventlog header: the event types the file declares, with their sizes.
#pragma once

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
    std::int32_t size_of(std::uint16_t tag) const { return sizes_[tag]; }
    bool declares(std::uint16_t tag) const { return sizes_[tag] != kUndeclared; }
    const EventTypeDecl* find(std::uint16_t tag) const;

private:
    std::vector<EventTypeDecl> types_;   // in header order
    std::vector<std::int32_t> sizes_;    // by tag: one lookup per event on the hot path
    std::vector<std::int32_t> index_;    // by tag: position in types_, or -1
};

}  // namespace el2fx::eventlog

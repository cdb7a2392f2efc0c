#include "eventlog/record_framing.hpp"

#include <string>

#include "eventlog/payload_decoder.hpp"
#include "util/error.hpp"

namespace el2fx::eventlog {
namespace {

constexpr std::size_t kVariableHeader = kEventHeader + 2;  // tag, time, length
constexpr std::size_t kNoEnd = ~std::size_t{0};

// A record can start at p: a tag the header declares, or the end-of-data marker.
bool can_start_record(const Header& header, const std::uint8_t* p) {
    const std::uint16_t tag = load_be16(p);
    return tag == kEndOfData || header.declares(tag);
}

// Where the known fields of the record at p end, looking no further than `end`; kNoEnd where
// they do not fit, or where the bytes cannot tell (a field that reads to the end).
std::size_t fields_end(const std::uint8_t* p, std::size_t end) {
    const std::size_t known = known_payload_bytes(load_be16(p), p + kVariableHeader, end - kVariableHeader);
    return known == kFieldsDoNotFit || known == kFieldsReadToEnd ? kNoEnd : kVariableHeader + known;
}

[[noreturn]] void undeclared(std::uint16_t tag, std::uint64_t offset) {
    Error::Context c;
    c.offset = offset;
    const std::string_view name = tag_name(tag);
    c.event = name.empty() ? "tag " + std::to_string(tag) : std::string(name);
    throw Error("event type " + std::to_string(tag) + " is not declared in the header", std::move(c));
}

}  // namespace

std::size_t variable_record_size(const Header& header, const std::uint8_t* p, std::size_t avail, std::size_t bound) {
    const std::size_t declared_end = kVariableHeader + load_be16(p + kEventHeader);
    if (declared_end > bound) {
        // Past its block as declared: it fits only if its fields end inside the block.
        if (avail < bound) return bound;
        const std::size_t walked_end = fields_end(p, bound);
        return walked_end <= bound ? walked_end : declared_end;
    }
    if (avail < declared_end) return declared_end;
    const std::size_t walked_end = fields_end(p, declared_end);
    if (walked_end >= declared_end) return declared_end;  // all of it, too short, or cannot tell
    if (declared_end + 2 > bound) return declared_end;    // nothing after it to say otherwise
    if (avail < declared_end + 2) return declared_end + 2;
    if (can_start_record(header, p + declared_end)) return declared_end;
    return can_start_record(header, p + walked_end) ? walked_end : declared_end;
}

VariableFraming variable_framing(const std::uint8_t* p, std::size_t size) {
    const std::size_t declared_end = kVariableHeader + load_be16(p + kEventHeader);
    if (size < declared_end) return VariableFraming::by_its_fields;
    return fields_end(p, declared_end) < declared_end ? VariableFraming::with_unknown_tail
                                                      : VariableFraming::as_declared;
}

std::size_t record_size_beyond_fixed(const Header& header, const std::uint8_t* p, std::size_t avail,
                                     std::uint64_t offset, std::size_t bound) {
    if (avail < 2) return 2;
    const std::uint16_t tag = load_be16(p);
    if (tag == kEndOfData) return 0;
    const std::int32_t declared = header.size_of(tag);
    if (declared == Header::kUndeclared) undeclared(tag, offset);
    if (declared >= 0) return kEventHeader + static_cast<std::size_t>(declared);
    if (avail < kVariableHeader) return kVariableHeader;
    return variable_record_size(header, p, avail, bound);
}

}  // namespace el2fx::eventlog

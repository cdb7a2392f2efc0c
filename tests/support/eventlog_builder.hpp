// Builds eventlog bytes for tests and fuzz seeds, driven by the same event table
// as the decoder: declare types, open blocks, append typed events.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "eventlog/event_types.hpp"
#include "eventlog/field_io.hpp"

namespace el2fx::testing {

class EventlogBuilder {
public:
    // Declares T with its newest known size (or variable), unless `size` overrides it.
    template <typename T>
    EventlogBuilder& declare(std::optional<std::optional<std::uint16_t>> size = std::nullopt) {
        constexpr std::size_t fixed = eventlog::field_io::fixed_payload_size<T>();
        std::optional<std::uint16_t> s;
        if (fixed != eventlog::field_io::kVariableSize) s = static_cast<std::uint16_t>(fixed);
        if (size) s = *size;
        return declare_raw(T::tag, s, std::string(T::name));
    }
    EventlogBuilder& declare_raw(std::uint16_t tag, std::optional<std::uint16_t> size, std::string description) {
        types_[tag] = Decl{size, std::move(description)};
        return *this;
    }
    // Declares every type the block machinery needs (BLOCK_MARKER).
    EventlogBuilder& declare_block_marker() { return declare<eventlog::BlockMarker>(); }

    // Appends an event; a fixed-size type's payload is padded with zeros or cut to the declared size.
    template <typename T>
    EventlogBuilder& event(std::uint64_t time, const T& payload) {
        std::string bytes;
        eventlog::field_io::write_fields(bytes, payload);
        return raw_event(T::tag, time, std::move(bytes));
    }
    EventlogBuilder& raw_event(std::uint16_t tag, std::uint64_t time, std::string payload) {
        auto it = types_.find(tag);
        long size = it == types_.end() || !it->second.size ? -1 : long{*it->second.size};
        eventlog::field_io::put_int(data_, tag);
        eventlog::field_io::put_int(data_, time);
        if (size >= 0) {
            payload.resize(static_cast<std::size_t>(size), '\0');
        } else {
            eventlog::field_io::put_int(data_, static_cast<std::uint16_t>(payload.size()));
        }
        data_ += payload;
        return *this;
    }

    // Appends a variable-size event whose length field says `extra` bytes more than it writes
    // (GHC 9.6.5 to 9.14 write each IPE event so, with extra = 1).
    template <typename T>
    EventlogBuilder& mis_sized_event(std::uint64_t time, const T& payload, int extra) {
        std::string bytes;
        eventlog::field_io::write_fields(bytes, payload);
        eventlog::field_io::put_int(data_, T::tag);
        eventlog::field_io::put_int(data_, time);
        eventlog::field_io::put_int(data_, static_cast<std::uint16_t>(static_cast<int>(bytes.size()) + extra));
        data_ += bytes;
        return *this;
    }

    // Opens a block of `cap` (0xFFFF: global); its size is filled in by end_block().
    EventlogBuilder& begin_block(std::uint64_t time, std::uint16_t cap, std::uint64_t end_time = 0) {
        block_start_ = data_.size();
        return event(time, eventlog::BlockMarker{0, end_time, cap});
    }
    EventlogBuilder& end_block() {
        std::uint32_t size = static_cast<std::uint32_t>(data_.size() - *block_start_);
        std::string s;
        eventlog::field_io::put_int(s, size);
        data_.replace(*block_start_ + 10, 4, s);
        block_start_.reset();
        return *this;
    }

    std::string header() const {
        std::string out = "hdrbhetb";
        for (const auto& [tag, decl] : types_) {
            out += std::string("etb\0", 4);
            eventlog::field_io::put_int(out, tag);
            eventlog::field_io::put_int(out, decl.size ? *decl.size : std::uint16_t{0xFFFF});
            eventlog::field_io::put_int(out, static_cast<std::uint32_t>(decl.description.size()));
            out += decl.description;
            eventlog::field_io::put_int(out, std::uint32_t{0});
            out += std::string("ete\0", 4);
        }
        out += "hetehdredatb";
        return out;
    }
    // The whole file; without the end marker it is what a killed program leaves.
    std::string finish(bool end_marker = true) const {
        std::string out = header() + data_;
        if (end_marker) eventlog::field_io::put_int(out, std::uint16_t{0xFFFF});
        return out;
    }
    std::size_t data_size() const { return data_.size(); }

private:
    struct Decl {
        std::optional<std::uint16_t> size;
        std::string description;
    };
    std::map<std::uint16_t, Decl> types_;
    std::string data_;
    std::optional<std::size_t> block_start_;
};

}  // namespace el2fx::testing

#include "cli/event_filter.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

#include "eventlog/payload_decoder.hpp"
#include "util/error.hpp"

namespace el2fx::cli {
namespace {

std::string upper(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return s;
}

bool all_digits(const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

}  // namespace

void EventFilter::add_type(const std::string& value) {
    if (all_digits(value)) {
        unsigned long tag = std::strtoul(value.c_str(), nullptr, 10);
        if (tag > 0xFFFE) throw Error("--type: no event type has tag " + value);
        tags.insert(static_cast<std::uint16_t>(tag));
    } else {
        type_names.insert(value);
    }
}

void EventFilter::resolve(const eventlog::Header& header) {
    for (const std::string& name : type_names) {
        bool found = false;
        for (const eventlog::EventTypeDecl& decl : header.types()) {
            if (upper(std::string(eventlog::tag_name(decl.tag))) == upper(name) ||
                upper(decl.description) == upper(name)) {
                tags.insert(decl.tag);
                found = true;
            }
        }
        if (!found) throw Error("--type: this eventlog declares no event type named \"" + name + "\"");
    }
    type_names.clear();
}

std::optional<std::uint32_t> thread_of(const eventlog::Event& event) {
    return std::visit(
        [](const auto& p) -> std::optional<std::uint32_t> {
            if constexpr (requires { p.thread; })
                return p.thread;
            else if constexpr (requires { p.spark_thread; })
                return p.spark_thread;
            else
                return std::nullopt;
        },
        event.payload);
}

bool EventFilter::accepts(const eventlog::Event& event) const {
    if (!tags.empty() && !tags.count(event.tag)) return false;
    if (from && event.time < *from) return false;
    if (to && event.time > *to) return false;
    if (cap) {
        std::optional<std::uint32_t> c;
        if (auto* sample = event.as<eventlog::ProfSampleCostCentre>())
            c = sample->cap;
        else if (event.cap)
            c = *event.cap;
        if (c != cap) return false;
    }
    if (thread && thread_of(event) != thread) return false;
    return true;
}

std::uint64_t parse_time(const std::string& text) {
    const char* begin = text.c_str();
    char* end = nullptr;
    double value = std::strtod(begin, &end);
    std::string unit(end);
    double scale = 0;
    if (unit.empty() || unit == "ns")
        scale = 1;
    else if (unit == "us" || unit == "µs")
        scale = 1e3;
    else if (unit == "ms")
        scale = 1e6;
    else if (unit == "s")
        scale = 1e9;
    if (end == begin || scale == 0 || !(value >= 0) || !std::isfinite(value))
        throw Error("invalid time \"" + text + "\" (examples: 1500000, 1.5ms, 2s)");
    return static_cast<std::uint64_t>(std::llround(value * scale));
}

}  // namespace el2fx::cli

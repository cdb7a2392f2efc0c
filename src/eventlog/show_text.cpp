#include "eventlog/show_text.hpp"

#include <charconv>

namespace el2fx::eventlog {

void append_header_text(std::string& out, const Header& header) {
    out += "Event Types:\n";
    for (const EventTypeDecl& t : header.types()) {
        out += std::to_string(t.tag) + ": " + t.description;
        out += t.size ? " (size " + std::to_string(*t.size) + ")\n" : " (size variable)\n";
    }
    out += "\nEvents:\n";
}

void append_event_text(std::string& out, const Event& event) {
    out += std::to_string(event.time) + ": ";
    if (event.cap) out += "cap " + std::to_string(*event.cap) + ": ";
    out += "tag " + std::to_string(event.tag) + "\n";
}

}  // namespace el2fx::eventlog

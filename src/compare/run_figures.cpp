#include "compare/run_figures.hpp"

namespace el2fx::compare {

const char* unit_name(Unit unit) {
    switch (unit) {
        case Unit::bytes: return "bytes";
        case Unit::ns: return "ns";
        case Unit::ratio: return "ratio";
        case Unit::count: return "count";
    }
    return "count";
}

const char* better_name(Better better) {
    switch (better) {
        case Better::lower: return "lower";
        case Better::higher: return "higher";
        case Better::neither: return "neither";
    }
    return "neither";
}

const char* group_name(Group group) {
    switch (group) {
        case Group::rts: return "rts";
        case Group::pauses: return "pauses";
        case Group::capabilities: return "capabilities";
        case Group::blocked: return "blocked";
        case Group::cost_centres: return "cost_centres";
        case Group::heap_bands: return "heap_bands";
    }
    return "rts";
}

const char* group_title(Group group) {
    switch (group) {
        case Group::rts: return "+RTS -s";
        case Group::pauses: return "GC pauses (the runtime's: the initiating capability's)";
        case Group::capabilities: return "Capabilities (share of each one's life)";
        case Group::blocked: return "Haskell threads blocked (all threads' time, by reason)";
        case Group::cost_centres: return "Cost centres (share of time-profile ticks)";
        case Group::heap_bands: return "Heap-profile bands";
    }
    return "";
}

const FigureValue* RunFigures::find(const std::string& key) const {
    for (const FigureValue& f : figures)
        if (f.key == key) return &f;
    return nullptr;
}

}  // namespace el2fx::compare

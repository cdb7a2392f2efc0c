#include "convert/gc_marker_strings.hpp"

namespace el2fx::convert {

GcMarkerStrings intern_gc_marker_strings(fxprof::Profile& p_) {
    GcMarkerStrings strings;
    GcMarkerStrings::Names& n_ = strings.n;
    GcMarkerStrings::Strings& s_ = strings.s;
    n_.gc = p_.handle_for_string("GC");
    n_.sync = p_.handle_for_string("GC sync");
    n_.pause = p_.handle_for_string("GC pause");
    n_.phases = p_.handle_for_string("GC phases");
    n_.mark = p_.handle_for_string("Concurrent mark");
    n_.conc_sync = p_.handle_for_string("Concurrent sync");
    n_.sweep = p_.handle_for_string("Concurrent sweep");
    n_.census = p_.handle_for_string("Nonmoving census");
    n_.pruned = p_.handle_for_string("Nonmoving segments pruned");
    n_.flush = p_.handle_for_string("Remembered set flushed");
    n_.returned = p_.handle_for_string("Memory returned to the OS");
    s_.major = p_.handle_for_string("major");
    s_.minor = p_.handle_for_string("minor");
    s_.parallel = p_.handle_for_string("parallel");
    s_.sequential = p_.handle_for_string("sequential");
    s_.initiating = p_.handle_for_string("initiating");
    s_.taking_part = p_.handle_for_string("taking part");
    s_.work = p_.handle_for_string("work");
    s_.idle = p_.handle_for_string("idle");
    s_.done = p_.handle_for_string("done");
    s_.green = p_.handle_for_string("green");
    s_.grey = p_.handle_for_string("grey");
    s_.blue = p_.handle_for_string("blue");
    s_.complete = p_.handle_for_string("yes");
    s_.incomplete = p_.handle_for_string("no: the eventlog ended first");
    return strings;
}

}  // namespace el2fx::convert

// The strings of the GC and heap markers (gc_markers, nonmoving_markers, heap_counters): their
// names and the values they repeat, interned at the start in one fixed order, so that the
// profile's string table does not depend on which kind of marker comes first.
#pragma once

#include "fxprof/profile.hpp"

namespace el2fx::convert {

struct GcMarkerStrings {
    struct Names {
        fxprof::StringHandle gc{0}, sync{0}, pause{0}, phases{0}, mark{0}, conc_sync{0}, sweep{0}, census{0}, pruned{0},
            flush{0}, returned{0};
    } n;
    struct Strings {
        fxprof::StringHandle major{0}, minor{0}, parallel{0}, sequential{0}, initiating{0}, taking_part{0}, work{0},
            idle{0}, done{0}, green{0}, grey{0}, blue{0}, complete{0}, incomplete{0};
    } s;
};

GcMarkerStrings intern_gc_marker_strings(fxprof::Profile& profile);

}  // namespace el2fx::convert

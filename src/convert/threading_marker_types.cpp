#include "convert/threading_marker_types.hpp"

namespace el2fx::convert {

ThreadingMarkerNames intern_threading_marker_names(fxprof::Profile& p) {
    ThreadingMarkerNames names;
    names.idle = p.handle_for_string("Idle");
    names.mutator = p.handle_for_string("Mutator");
    names.running = p.handle_for_string("Running");
    names.created = p.handle_for_string("Thread created");
    names.migrated = p.handle_for_string("Thread migrated");
    names.woken = p.handle_for_string("Thread woken");
    names.labelled = p.handle_for_string("Thread labelled");
    names.finished = p.handle_for_string("Thread finished");
    names.warning = p.handle_for_string("Eventlog warning");
    return names;
}

}  // namespace el2fx::convert

// The marker types of capabilities and Haskell threads: Mutator, Idle, Running,
// ThreadStopped, ThreadCreated, ThreadMigrated, ThreadWoken, ThreadLabelled, ThreadFinished,
// merged spans and EventlogWarning, each with its schema (what its fields are and how the
// profiler shows them) and the name its markers carry.
#pragma once

#include "fxprof/profile.hpp"

namespace el2fx::convert {

struct ThreadingMarkerTypes {
    struct Names {
        fxprof::StringHandle idle{0}, mutator{0}, running{0}, created{0}, migrated{0}, woken{0}, labelled{0},
            finished{0}, warning{0};
    } names;
    fxprof::MarkerSchemaHandle mutator_schema{0}, idle_schema{0}, running_schema{0}, stopped_schema{0},
        created_schema{0}, migrated_schema{0}, woken_schema{0}, labelled_schema{0}, finished_schema{0},
        warning_schema{0}, merged_schema{0};
};

// Interns the names, then registers the schemas, in a fixed order (string indexes stay the
// same whatever order a compiler evaluates arguments in).
ThreadingMarkerTypes declare_threading_marker_types(fxprof::Profile& profile);

}  // namespace el2fx::convert

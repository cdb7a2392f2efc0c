// What `compare` measures of one run: a flat list of named figures (the `+RTS -s` figures, GC
// pauses, capability utilisation, blocked time, cost centres, heap-profile bands), so that the
// statistics, the table, the JSON and --fail-if treat every figure alike.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace el2fx::compare {

enum class Unit : std::uint8_t { bytes, ns, ratio, count };
const char* unit_name(Unit unit);

// Which way is an improvement: it colours the table, never changes a figure.
enum class Better : std::uint8_t { lower, higher, neither };
const char* better_name(Better better);

// The table's sections, in the order they are shown.
enum class Group : std::uint8_t { rts, pauses, capabilities, blocked, cost_centres, heap_bands };
const char* group_name(Group group);   // the JSON's word: "rts", "pauses", …
const char* group_title(Group group);  // the table's heading

struct FigureValue {
    std::string key;    // stable, for JSON and --fail-if: "gc_elapsed", "cap1_idle", "band_peak:ARR_WORDS"
    std::string label;  // for the table
    Group group = Group::rts;
    Unit unit = Unit::count;
    Better better = Better::neither;
    double value = 0;
};

struct RunFigures {
    std::string input;                 // as given on the command line
    std::string program;               // argv[0]'s file name; empty if the log did not say
    std::string rts_options;           // the +RTS … -RTS words of its command line
    std::string rts_identifier;        // "GHC-9.0.2 rts_thr"
    std::vector<FigureValue> figures;  // in the order of their groups; each key once

    const FigureValue* find(const std::string& key) const;
};

}  // namespace el2fx::compare

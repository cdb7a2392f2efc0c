// Two sides of runs, figure by figure: each side's median and spread over its runs, the change
// of the medians, and whether the sides' spreads are apart (so noise is not read as a change).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "compare/run_figures.hpp"

namespace el2fx::compare {

struct SideFigure {
    std::vector<double> values;  // one per run that has the figure, in the runs' order
    double median = 0, min = 0, max = 0;
    bool present() const { return !values.empty(); }
};

struct FigureComparison {
    std::string key, label;
    Group group = Group::rts;
    Unit unit = Unit::count;
    Better better = Better::neither;
    SideFigure before, after;
    // after.median - before.median, and that as per cent of before.median; none where a side
    // lacks the figure (percent also where before is 0 and after is not).
    std::optional<double> change, percent;
    // Both sides have two runs or more and their ranges [min, max] do not overlap.
    bool apart = false;
};

struct Comparison {
    std::vector<RunFigures> before, after;
    // The figures in the order of their groups; within cost centres and heap bands the largest
    // changes (absolute) first.
    std::vector<FigureComparison> figures;
    // What differs between the runs beyond the figures: programs, RTS options, runtimes.
    std::vector<std::string> notes;

    const FigureComparison* find(const std::string& key) const;
};

Comparison compare_runs(std::vector<RunFigures> before, std::vector<RunFigures> after);

}  // namespace el2fx::compare

#include "compare/comparison.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "compare/statistics.hpp"

namespace el2fx::compare {
namespace {

SideFigure side(const std::vector<RunFigures>& runs, const std::string& key) {
    SideFigure s;
    for (const RunFigures& run : runs)
        if (const FigureValue* f = run.find(key)) s.values.push_back(f->value);
    if (s.values.empty()) return s;
    s.median = median(s.values);
    s.min = *std::min_element(s.values.begin(), s.values.end());
    s.max = *std::max_element(s.values.begin(), s.values.end());
    return s;
}

// "x, y" of the distinct values in order of first appearance, or "" when all agree.
std::string differing(const std::vector<RunFigures>& runs, std::string RunFigures::*field) {
    std::vector<std::string> seen;
    for (const RunFigures& r : runs)
        if (std::find(seen.begin(), seen.end(), r.*field) == seen.end()) seen.push_back(r.*field);
    if (seen.size() < 2) return {};
    std::string text;
    for (const std::string& v : seen) text += (text.empty() ? "" : ", ") + (v.empty() ? std::string("(none)") : v);
    return text;
}

}  // namespace

const FigureComparison* Comparison::find(const std::string& key) const {
    for (const FigureComparison& f : figures)
        if (f.key == key) return &f;
    return nullptr;
}

Comparison compare_runs(std::vector<RunFigures> before, std::vector<RunFigures> after) {
    Comparison c;
    c.before = std::move(before);
    c.after = std::move(after);
    // Every key of any run, in the first order it is met in (before's runs, then after's).
    std::vector<const FigureValue*> keys;
    std::set<std::string> known;
    for (const auto* runs : {&c.before, &c.after})
        for (const RunFigures& run : *runs)
            for (const FigureValue& f : run.figures)
                if (known.insert(f.key).second) keys.push_back(&f);
    for (const FigureValue* k : keys) {
        FigureComparison f;
        f.key = k->key;
        f.label = k->label;
        f.group = k->group;
        f.unit = k->unit;
        f.better = k->better;
        f.before = side(c.before, f.key);
        f.after = side(c.after, f.key);
        if (f.before.present() && f.after.present()) {
            f.change = f.after.median - f.before.median;
            if (f.before.median != 0)
                f.percent = *f.change / std::fabs(f.before.median) * 100.0;
            else if (*f.change == 0)
                f.percent = 0.0;
            f.apart = f.before.values.size() >= 2 && f.after.values.size() >= 2 &&
                      (f.after.min > f.before.max || f.after.max < f.before.min);
        }
        c.figures.push_back(std::move(f));
    }
    // Groups in order; the profiling groups by the size of their change, then by key.
    auto magnitude = [](const FigureComparison& f) {
        if (f.change) return std::fabs(*f.change);
        return std::max(f.before.present() ? std::fabs(f.before.median) : 0.0,
                        f.after.present() ? std::fabs(f.after.median) : 0.0);
    };
    std::stable_sort(c.figures.begin(), c.figures.end(), [&](const FigureComparison& a, const FigureComparison& b) {
        if (a.group != b.group) return a.group < b.group;
        if (a.group == Group::cost_centres || a.group == Group::heap_bands) {
            const double ma = magnitude(a), mb = magnitude(b);
            if (ma != mb) return ma > mb;
            return a.key < b.key;
        }
        return false;
    });

    // The runs beyond the figures.
    std::vector<RunFigures> all = c.before;
    all.insert(all.end(), c.after.begin(), c.after.end());
    if (std::string d = differing(all, &RunFigures::program); !d.empty())
        c.notes.push_back("the runs are of different programs: " + d);
    if (std::string d = differing(all, &RunFigures::rts_options); !d.empty())
        c.notes.push_back("the runs have different RTS options: " + d);
    if (std::string d = differing(all, &RunFigures::rts_identifier); !d.empty())
        c.notes.push_back("the runs have different runtimes: " + d);
    return c;
}

}  // namespace el2fx::compare

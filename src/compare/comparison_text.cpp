#include "compare/comparison_text.hpp"

#include <algorithm>
#include <cmath>

#include "compare/value_text.hpp"

namespace el2fx::compare {
namespace {

struct Row {
    std::string cells[5];  // label, before, after, change, percent
    std::string mark;
    int tone = 0;  // -1 worse, +1 better
    bool heading = false;
};

std::string side_text(const SideFigure& s, Unit unit, bool several) {
    if (!s.present()) return "-";
    std::string text = format_value(s.median, unit);
    if (several && s.values.size() > 1)
        text += " (" + format_value(s.min, unit) + "–" + format_value(s.max, unit) + ")";
    return text;
}

std::string pad_left(const std::string& s, std::size_t w) {
    const std::size_t d = display_width(s);
    return d >= w ? s : std::string(w - d, ' ') + s;
}
std::string pad_right(const std::string& s, std::size_t w) {
    const std::size_t d = display_width(s);
    return d >= w ? s : s + std::string(w - d, ' ');
}

std::string runs_text(const std::vector<RunFigures>& runs) {
    if (runs.size() == 1) return runs.front().input;
    std::string text = std::to_string(runs.size()) + " runs (";
    for (std::size_t i = 0; i < runs.size(); ++i) text += (i ? ", " : "") + runs[i].input;
    return text + ")";
}

}  // namespace

std::string render_comparison_text(const Comparison& c, const std::vector<GateResult>& gates,
                                   const TextOptions& options) {
    const bool several = c.before.size() > 1 || c.after.size() > 1;
    std::string out = "before: " + runs_text(c.before) + "\nafter:  " + runs_text(c.after) + "\n";
    if (several) out += "Several runs per side: medians, (min–max), * where the two sides' ranges do not overlap.\n";
    for (const std::string& note : c.notes) out += "note: " + note + "\n";

    std::vector<Row> rows;
    rows.push_back({{"", "before", "after", "change", "%"}, "", 0, false});
    std::optional<Group> group;
    std::size_t in_group = 0, left_out = 0;
    auto flush_left_out = [&] {
        if (left_out)
            rows.push_back(
                {{"  … " + std::to_string(left_out) + " more (--json lists them all)", "", "", "", ""}, "", 0, false});
        left_out = 0;
    };
    for (const FigureComparison& f : c.figures) {
        if (group != f.group) {
            flush_left_out();
            group = f.group;
            in_group = 0;
            rows.push_back({{group_title(f.group), "", "", "", ""}, "", 0, true});
        }
        const bool profiling = f.group == Group::cost_centres || f.group == Group::heap_bands;
        if (profiling && in_group >= options.max_profiling_rows) {
            ++left_out;
            continue;
        }
        ++in_group;
        Row r;
        r.cells[0] = "  " + f.label;
        r.cells[1] = side_text(f.before, f.unit, several);
        r.cells[2] = side_text(f.after, f.unit, several);
        if (f.change) {
            r.cells[3] = format_change(*f.change, f.unit);
            r.cells[4] = f.percent ? format_percent(*f.percent) : (*f.change > 0 ? "new" : "-");
        } else {
            r.cells[3] = f.before.present() ? "gone" : "new";
            r.cells[4] = "";
        }
        if (f.apart) r.mark = "*";
        const bool visible = f.change && (f.percent ? std::fabs(*f.percent) >= 0.05 : *f.change != 0);
        if (visible && f.better != Better::neither) r.tone = (*f.change < 0) == (f.better == Better::lower) ? 1 : -1;
        rows.push_back(std::move(r));
    }
    flush_left_out();

    std::size_t w[5] = {};
    for (const Row& r : rows)
        if (!r.heading)
            for (int i = 0; i < 5; ++i) w[i] = std::max(w[i], display_width(r.cells[i]));
    // A long label (a cost-centre stack) does not widen every row beyond a terminal's width.
    w[0] = std::min<std::size_t>(w[0], 48);
    out += "\n";
    for (const Row& r : rows) {
        if (r.heading) {
            out += "\n" + (options.colour ? "\033[1m" + r.cells[0] + "\033[0m" : r.cells[0]) + "\n";
            continue;
        }
        std::string line = pad_right(r.cells[0], w[0]);
        if (display_width(r.cells[0]) > w[0]) line += "\n" + std::string(w[0], ' ');
        line += "  " + pad_left(r.cells[1], w[1]) + "  " + pad_left(r.cells[2], w[2]) + "  ";
        std::string change = pad_left(r.cells[3], w[3]) + "  " + pad_left(r.cells[4], w[4]);
        if (options.colour && r.tone) change = (r.tone > 0 ? "\033[32m" : "\033[31m") + change + "\033[0m";
        line += change;
        if (!r.mark.empty()) line += " " + r.mark;
        while (!line.empty() && line.back() == ' ') line.pop_back();
        out += line + "\n";
    }
    if (!gates.empty()) {
        out += "\n--fail-if\n";
        for (const GateResult& g : gates) {
            std::string status = g.failed ? "FAILED" : "ok";
            if (options.colour) status = (g.failed ? "\033[31m" : "\033[32m") + status + "\033[0m";
            std::string measured;
            if (g.measured) {
                const FigureComparison* f = c.find(g.gate.figure);
                measured = g.gate.percent ? format_percent(*g.measured)
                                          : format_change(*g.measured, f ? f->unit : Unit::count);
            }
            out += "  " + g.gate.expression + ": " + status + " (change " + measured + ")\n";
        }
    }
    return out;
}

}  // namespace el2fx::compare

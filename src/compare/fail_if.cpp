#include "compare/fail_if.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <regex>

#include "util/error.hpp"

namespace el2fx::compare {
namespace {

std::string trim(std::string s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
    std::size_t i = 0;
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    return s.substr(i);
}

struct UnitScale {
    const char* name;
    Unit unit;
    double scale;
};
constexpr UnitScale kUnits[] = {
    {"b", Unit::bytes, 1},
    {"kb", Unit::bytes, 1e3},
    {"mb", Unit::bytes, 1e6},
    {"gb", Unit::bytes, 1e9},
    {"kib", Unit::bytes, 1024.0},
    {"mib", Unit::bytes, 1048576.0},
    {"gib", Unit::bytes, 1073741824.0},
    {"ns", Unit::ns, 1},
    {"us", Unit::ns, 1e3},
    {"ms", Unit::ns, 1e6},
    {"s", Unit::ns, 1e9},
};

}  // namespace

Gate parse_gate(const std::string& expression) {
    Gate gate;
    gate.expression = expression;
    const std::size_t at = expression.find_first_of("<>");
    if (at == std::string::npos) throw Error("--fail-if '" + expression + "': no > or < (e.g. 'gc_elapsed>+10%')");
    gate.figure = trim(expression.substr(0, at));
    if (gate.figure.empty()) throw Error("--fail-if '" + expression + "': no figure before " + expression[at]);
    std::size_t rest = at + 1;
    const bool or_equal = rest < expression.size() && expression[rest] == '=';
    if (or_equal) ++rest;
    gate.op = expression[at] == '>' ? (or_equal ? GateOp::at_least : GateOp::above)
                                    : (or_equal ? GateOp::at_most : GateOp::below);
    const std::string threshold = trim(expression.substr(rest));
    // A plain decimal number: strtod alone would also take hexadecimal, "inf" and "nan".
    static const std::regex number(R"(^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+))");
    std::smatch m;
    if (!std::regex_search(threshold, m, number))
        throw Error("--fail-if '" + expression + "': the threshold is not a number (e.g. +10%, 5MB, 2ms, 3)");
    gate.threshold = std::strtod(m.str(0).c_str(), nullptr);
    std::string unit = trim(threshold.substr(m.length(0)));
    for (char& ch : unit) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (unit == "µs") unit = "us";
    if (unit == "%") {
        gate.percent = true;
    } else if (!unit.empty()) {
        bool found = false;
        for (const UnitScale& u : kUnits)
            if (unit == u.name) {
                gate.unit = u.unit;
                gate.threshold *= u.scale;
                found = true;
            }
        if (!found)
            throw Error("--fail-if '" + expression + "': unknown unit '" + unit +
                        "' (%, B, kB, MB, GB, KiB, MiB, GiB, ns, us, ms, s)");
    }
    return gate;
}

GateResult evaluate_gate(const Gate& gate, const Comparison& comparison) {
    const FigureComparison* f = comparison.find(gate.figure);
    if (!f || !f->change) {
        std::string known;
        for (const FigureComparison& c : comparison.figures)
            if (c.change && c.group == Group::rts) known += (known.empty() ? "" : ", ") + c.key;
        throw Error("--fail-if '" + gate.expression + "': " + (f ? "only one side has the figure " : "no figure ") +
                    gate.figure + " in these runs (figures: " + known + ", …; `compare --json` lists every key)");
    }
    if (gate.unit && *gate.unit != f->unit)
        throw Error("--fail-if '" + gate.expression + "': " + gate.figure + " is in " + unit_name(f->unit) +
                    ", not in " + unit_name(*gate.unit));
    GateResult r;
    r.gate = gate;
    if (gate.percent) {
        r.measured = f->percent       ? *f->percent
                     : *f->change > 0 ? std::numeric_limits<double>::infinity()
                                      : -std::numeric_limits<double>::infinity();
    } else {
        r.measured = *f->change;
    }
    const double m = *r.measured, t = gate.threshold;
    switch (gate.op) {
        case GateOp::above: r.failed = m > t; break;
        case GateOp::at_least: r.failed = m >= t; break;
        case GateOp::below: r.failed = m < t; break;
        case GateOp::at_most: r.failed = m <= t; break;
    }
    return r;
}

}  // namespace el2fx::compare

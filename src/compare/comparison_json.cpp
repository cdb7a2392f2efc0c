#include "compare/comparison_json.hpp"

#include <cmath>

#include "util/rapidjson.hpp"
#include "util/utf8.hpp"

namespace el2fx::compare {
namespace {

using Writer = rapidjson::PrettyWriter<rapidjson::StringBuffer>;

void string(Writer& w, const std::string& s) {
    std::string clean;
    utf8::append_sanitized(clean, s);
    w.String(clean.data(), static_cast<rapidjson::SizeType>(clean.size()));
}

// Whole numbers as integers (bytes, ns, counts are), the rest as doubles; null for none.
void number(Writer& w, std::optional<double> v) {
    if (!v || !std::isfinite(*v)) {
        w.Null();
    } else if (*v == std::round(*v) && std::fabs(*v) < 9.0e15) {
        w.Int64(static_cast<std::int64_t>(*v));
    } else {
        w.Double(*v);
    }
}

void side(Writer& w, const SideFigure& s) {
    if (!s.present()) {
        w.Null();
        return;
    }
    w.StartObject();
    w.Key("median");
    number(w, s.median);
    w.Key("min");
    number(w, s.min);
    w.Key("max");
    number(w, s.max);
    w.Key("values");
    w.StartArray();
    for (double v : s.values) number(w, v);
    w.EndArray();
    w.EndObject();
}

void runs(Writer& w, const std::vector<RunFigures>& runs) {
    w.StartObject();
    w.Key("runs");
    w.StartArray();
    for (const RunFigures& r : runs) {
        w.StartObject();
        w.Key("input");
        string(w, r.input);
        w.Key("program");
        string(w, r.program);
        w.Key("rts_options");
        string(w, r.rts_options);
        w.Key("rts_identifier");
        string(w, r.rts_identifier);
        w.EndObject();
    }
    w.EndArray();
    w.EndObject();
}

}  // namespace

std::string render_comparison_json(const Comparison& c, const std::vector<GateResult>& gates) {
    rapidjson::StringBuffer buffer;
    Writer w(buffer);
    w.SetIndent(' ', 2);
    w.StartObject();
    w.Key("format");
    w.String("eventlog2fxprof-compare");
    w.Key("version");
    w.Int(1);
    w.Key("before");
    runs(w, c.before);
    w.Key("after");
    runs(w, c.after);
    w.Key("notes");
    w.StartArray();
    for (const std::string& n : c.notes) string(w, n);
    w.EndArray();
    w.Key("figures");
    w.StartArray();
    for (const FigureComparison& f : c.figures) {
        w.StartObject();
        w.Key("key");
        string(w, f.key);
        w.Key("label");
        string(w, f.label);
        w.Key("group");
        w.String(group_name(f.group));
        w.Key("unit");
        w.String(unit_name(f.unit));
        w.Key("better");
        w.String(better_name(f.better));
        w.Key("before");
        side(w, f.before);
        w.Key("after");
        side(w, f.after);
        w.Key("change");
        number(w, f.change);
        w.Key("percent");
        if (f.percent && std::isfinite(*f.percent))
            w.Double(*f.percent);
        else
            w.Null();
        w.Key("apart");
        w.Bool(f.apart);
        w.EndObject();
    }
    w.EndArray();
    w.Key("gates");
    w.StartArray();
    bool failed = false;
    for (const GateResult& g : gates) {
        failed = failed || g.failed;
        w.StartObject();
        w.Key("expression");
        string(w, g.gate.expression);
        w.Key("figure");
        string(w, g.gate.figure);
        w.Key("failed");
        w.Bool(g.failed);
        w.Key("measured");
        if (g.measured && std::isfinite(*g.measured))
            w.Double(*g.measured);
        else
            w.Null();
        w.EndObject();
    }
    w.EndArray();
    w.Key("failed");
    w.Bool(failed);
    w.EndObject();
    return std::string(buffer.GetString(), buffer.GetSize()) + "\n";
}

}  // namespace el2fx::compare

#include "convert/window_contributor.hpp"

#include <algorithm>

#include "convert/run_info_contributor.hpp"
#include "window/window_spec.hpp"

namespace el2fx::convert {

void WindowContributor::begin(ProfileContext& context) {
    const window::Window& w = context.options.window;
    if (!w.spec.active() || !w.bounds) return;
    using fxprof::ExtraValue;
    fxprof::Profile& p = context.profile;
    const std::uint64_t from = w.bounds->from;
    const std::uint64_t to = w.bounds->to ? std::min(*w.bounds->to, run_end_time(context)) : run_end_time(context);
    fxprof::ExtraSectionHandle s = p.add_extra_section(context.section_label("Window"));
    p.add_extra_entry(s, "Shows", ExtraValue::text("a window of the run, " + window::format_time(from) + " to " +
                                                    window::format_time(to) + " after the RTS started"));
    std::string from_text = window::format_time(from);
    if (w.spec.from_marker) from_text += " (first marker starting with \"" + *w.spec.from_marker + "\")";
    std::string to_text = window::format_time(to);
    if (w.spec.to_marker) to_text += " (first marker starting with \"" + *w.spec.to_marker + "\" after the start)";
    else if (!w.spec.to) to_text += " (the log's end)";
    p.add_extra_entry(s, "From", ExtraValue::text(from_text));
    p.add_extra_entry(s, "To", ExtraValue::text(to_text));
    p.add_extra_entry(s, "Length", ExtraValue::duration(fxprof::Duration::from_nanos(static_cast<std::int64_t>(to - from))));
    p.add_extra_entry(s, "State at the start",
                      ExtraValue::text("threads running, stopped or blocked, collections under way, labels and "
                                       "definitions given before the window are stated at its start; allocation "
                                       "and spark counts and the +RTS -s figures are the window's own"));
}

}  // namespace el2fx::convert

#include "convert/user_events_contributor.hpp"

#include <algorithm>
#include <array>

#include "analysis/run/forgotten_labels.hpp"
#include "analysis/runtime/binary_preview.hpp"
#include "analysis/stack_profiler/stack_message.hpp"
#include "util/utf8.hpp"

namespace el2fx::convert {
namespace {

using namespace el2fx::fxprof;
using eventlog::CapNo;
using eventlog::ThreadId;

constexpr std::array<std::uint16_t, 3> kShown = {eventlog::UserMessage::tag, eventlog::UserMarker::tag,
                                                 eventlog::UserBinaryMessage::tag};

// Marker names are the rows of the marker chart, so they name the kind of event, never its
// text (one row per distinct text made dozens of rows for "worker 1 retained round N"); the
// text is a field, shown as the marker's label in the chart and searchable.
constexpr std::string_view kMarkerRow = "traceMarker";
constexpr std::string_view kUnmatchedRow = "Unmatched span message";
std::string_view span_row(runtime::SpanConvention c) {
    return c == runtime::SpanConvention::start_stop ? "START/STOP span" : "GHC:started/finished span";
}
constexpr std::size_t kBinaryPreviewBytes = 32;

// A span owner: the Haskell thread, or (when none ran) the capability, or neither.
constexpr runtime::SpanOwner kCapabilityOwner = runtime::SpanOwner{1} << 32;
constexpr runtime::SpanOwner kNoCapabilityOwner = runtime::SpanOwner{1} << 33;

// "12 worker" with the label the thread had at `time`, "thread 12" before its first.
std::string thread_name_at(const ProfileContext& ctx, const UserEventsContributor::ForgottenNames& forgotten,
                           ThreadId thread, std::uint64_t time) {
    if (const run::ThreadFacts* f = ctx.threads.find(thread)) {
        std::string_view label = ctx.threads.label_at(*f, time);
        if (!label.empty()) return std::to_string(thread) + " " + std::string(label);
    } else if (auto it = forgotten.find(thread); it != forgotten.end()) {  // forgotten by the census
        const auto& labels = it->second;
        auto l = std::upper_bound(labels.begin(), labels.end(), time,
                                  [](std::uint64_t t, const auto& entry) { return t < entry.first; });
        if (l != labels.begin() && !std::prev(l)->second.empty())
            return std::to_string(thread) + " " + std::prev(l)->second;
    }
    return "thread " + std::to_string(thread);
}

// ---- marker types -------------------------------------------------------------------------
// Each names the Haskell thread that wrote it ("thread", its id hidden: -1 when none ran).

struct UserMarkerMarker {
    static constexpr MarkerTypeInfo kType{
        .name = "UserMarker",
        .display = kTimelineDisplay,
        .tooltip_label = "{marker.data.text}",
        .table_label = "{marker.data.text} ({marker.data.thread})",
        .chart_label = "{marker.data.text}",
        .description = "traceMarker: a marker the program put into the eventlog (USER_MARKER)."};
    static constexpr std::array kFields{StaticField{"text", "Marker", FieldFormat::string},
                                        StaticField{"thread", "Haskell thread", FieldFormat::string},
                                        StaticField{"threadId", "Thread id", FieldFormat::integer, true}};
    StringHandle text;
    StringHandle thread;
    std::int64_t thread_id;
    auto field_values() const { return std::tuple{text, thread, thread_id}; }
};

struct UserMessageMarker {
    static constexpr MarkerTypeInfo kType{
        .name = "UserMessage",
        .display = kChartDisplay,
        .tooltip_label = "{marker.data.message}",
        .table_label = "{marker.data.message}",
        .chart_label = "{marker.data.message}",
        .description = "traceEvent: a message the program wrote into the eventlog (USER_MSG)."};
    static constexpr std::array kFields{StaticField{"message", "Message", FieldFormat::string},
                                        StaticField{"thread", "Haskell thread", FieldFormat::string},
                                        StaticField{"threadId", "Thread id", FieldFormat::integer, true}};
    StringHandle message;
    StringHandle thread;
    std::int64_t thread_id;
    auto field_values() const { return std::tuple{message, thread, thread_id}; }
};

struct UserBinaryMessageMarker {
    static constexpr MarkerTypeInfo kType{.name = "UserBinaryMessage",
                                          .display = kChartDisplay,
                                          .tooltip_label = "Binary message, {marker.data.length}",
                                          .table_label = "{marker.data.length}: {marker.data.hex}",
                                          .chart_label = "{marker.data.text}",
                                          .description =
                                              "traceBinaryEvent: bytes the program wrote into the eventlog "
                                              "(USER_BINARY_MSG), with the first bytes in hex and as text."};
    static constexpr std::array kFields{StaticField{"length", "Length", FieldFormat::bytes},
                                        StaticField{"hex", "Bytes (hex)", FieldFormat::string},
                                        StaticField{"text", "As text", FieldFormat::string},
                                        StaticField{"encoding", "Encoding", FieldFormat::string},
                                        StaticField{"thread", "Haskell thread", FieldFormat::string},
                                        StaticField{"threadId", "Thread id", FieldFormat::integer, true}};
    std::size_t length;
    StringHandle hex;
    StringHandle text;
    StringHandle encoding;
    StringHandle thread;
    std::int64_t thread_id;
    auto field_values() const { return std::tuple{length, hex, text, encoding, thread, thread_id}; }
};

struct UserSpanMarker {
    static constexpr MarkerTypeInfo kType{
        .name = "UserSpan",
        .display = kTimelineDisplay,
        .tooltip_label = "{marker.data.span}",
        .table_label = "{marker.data.span} ({marker.data.thread})",
        .chart_label = "{marker.data.span}",
        .description =
            "A span the program announced with traceEvent messages "
            "(\"START x\"/\"STOP x\" or GHC's \"GHC:started: x\"/\"GHC:finished: x\"), "
            "paired per Haskell thread."};
    static constexpr std::array kFields{StaticField{"span", "Span", FieldFormat::string},
                                        StaticField{"thread", "Haskell thread", FieldFormat::string},
                                        StaticField{"convention", "Messages", FieldFormat::string},
                                        StaticField{"depth", "Nesting depth", FieldFormat::integer},
                                        StaticField{"threadId", "Thread id", FieldFormat::integer, true}};
    StringHandle span;
    StringHandle thread;
    StringHandle convention;
    std::uint32_t depth;
    std::int64_t thread_id;
    auto field_values() const { return std::tuple{span, thread, convention, depth, thread_id}; }
};

struct UserSpanUnmatchedMarker {
    static constexpr MarkerTypeInfo kType{.name = "UserSpanUnmatched",
                                          .display = kTimelineDisplay,
                                          .tooltip_label = "{marker.data.problem}: {marker.data.message}",
                                          .table_label = "{marker.data.problem}: {marker.data.message}",
                                          .chart_label = "{marker.data.message}",
                                          .description =
                                              "A span message without its partner on the same Haskell thread: "
                                              "a STOP with no START before it, or a START never stopped."};
    static constexpr std::array kFields{StaticField{"problem", "Problem", FieldFormat::string},
                                        StaticField{"span", "Span", FieldFormat::string},
                                        StaticField{"message", "Message", FieldFormat::string},
                                        StaticField{"thread", "Haskell thread", FieldFormat::string},
                                        StaticField{"threadId", "Thread id", FieldFormat::integer, true}};
    StringHandle problem;
    StringHandle span;
    StringHandle message;
    StringHandle thread;
    std::int64_t thread_id;
    auto field_values() const { return std::tuple{problem, span, message, thread, thread_id}; }
};

struct Place {
    ThreadHandle track{0};
    std::string who;           // the thread field
    std::int64_t thread = -1;  // its id, -1 when no Haskell thread ran
};

// Where markers go.
class UserMarkers {
public:
    UserMarkers(ProfileContext& ctx, const UserEventsContributor::ForgottenNames& forgotten)
        : ctx_(ctx), p_(ctx.profile), forgotten_(forgotten) {}

    Place place(std::optional<CapNo> cap, std::optional<ThreadId> thread, std::uint64_t time) {
        Place out{ctx_.process_track, "", -1};
        if (thread) {
            out.thread = *thread;
            out.who = thread_name_at(ctx_, forgotten_, *thread, time);
            if (auto t = ctx_.thread_track(*thread)) {
                out.track = *t;
                return out;
            }
        }
        if (cap) {
            if (!thread) out.who = "capability " + std::to_string(*cap) + " (no Haskell thread running)";
            if (auto t = ctx_.capability_track(*cap)) out.track = *t;
        } else if (!thread) {
            out.who = "no capability";
        }
        return out;
    }

    Place place_owner(runtime::SpanOwner owner, std::uint64_t time) {
        if (owner == kNoCapabilityOwner) return Place{ctx_.process_track, "no capability", -1};
        if (owner & kCapabilityOwner) {
            auto cap = static_cast<CapNo>(owner & 0xFFFF);
            Place out{ctx_.process_track, "capability " + std::to_string(cap) + " (no Haskell thread running)", -1};
            if (auto t = ctx_.capability_track(cap)) out.track = *t;
            return out;
        }
        auto thread = static_cast<ThreadId>(owner);
        Place out{ctx_.process_track, thread_name_at(ctx_, forgotten_, thread, time), thread};
        if (auto t = ctx_.thread_track(thread)) out.track = *t;
        return out;
    }

private:
    ProfileContext& ctx_;
    Profile& p_;
    const UserEventsContributor::ForgottenNames& forgotten_;
};

std::string edge_text(runtime::SpanConvention c, runtime::SpanEdge e, std::string_view name) {
    std::string out;
    if (c == runtime::SpanConvention::start_stop) {
        out = e == runtime::SpanEdge::open ? "START " : "STOP ";
    } else {
        out = e == runtime::SpanEdge::open ? "GHC:started: " : "GHC:finished: ";
    }
    out += name;
    return out;
}

}  // namespace

UserEventsContributor::UserEventsContributor(const ConvertOptions& options, Diagnostics& diagnostics)
    : user_messages_(options.user_messages), diagnostics_(diagnostics) {}

std::span<const std::uint16_t> UserEventsContributor::shown_tags() const { return kShown; }

void UserEventsContributor::keep(std::uint64_t time, std::optional<CapNo> cap, Kind kind, std::string_view bytes) {
    Record r;
    r.time = time;
    r.cap = cap;
    if (cap && ctx_ && ctx_->running_threads) r.running = ctx_->running_threads->on(*cap);
    if (r.running && ctx_ && ctx_->forgotten_labels && !ctx_->threads.ordinal(*r.running)) {
        // Its label now, which is gone by the end (a change of label only: memory per message at most).
        std::string_view label = ctx_->forgotten_labels->label(*r.running);
        auto it = forgotten_names_.find(*r.running);
        if (it == forgotten_names_.end() && !label.empty())
            forgotten_names_[*r.running].emplace_back(time, label);
        else if (it != forgotten_names_.end() && it->second.back().second != label)
            it->second.emplace_back(time, label);
    }
    r.kind = kind;
    r.offset = arena_.size();
    if (kind == Kind::binary) {
        arena_.append(bytes);
    } else {
        utf8::append_sanitized(arena_, bytes);
    }
    r.length = arena_.size() - r.offset;
    records_.push_back(r);
}

void UserEventsContributor::handle(const eventlog::Event& event) {
    using namespace eventlog;
    switch (event.tag) {
        case UserMessage::tag:
            if (const auto* p = event.as<UserMessage>()) {
                ++messages_;
                if (auto span = runtime::parse_span_message(p->message.bytes)) {
                    keep(event.time, event.cap, Kind::span_edge, span->name);
                    records_.back().edge = span->edge;
                    records_.back().convention = span->convention;
                    if (span->edge == runtime::SpanEdge::close) ++span_closes_;
                } else if (user_messages_) {
                    keep(event.time, event.cap, Kind::message, p->message.bytes);
                }
            }
            break;
        case UserMarker::tag:
            if (const auto* p = event.as<UserMarker>()) {
                ++markers_;
                keep(event.time, event.cap, Kind::marker, p->marker.bytes);
            }
            break;
        case UserBinaryMessage::tag:
            if (const auto* p = event.as<UserBinaryMessage>()) {
                // ghc-stack-profiler's samples are stacks (stack_sample_contributor.hpp), not markers.
                if (stack_profiler::is_profiler_message(p->payload.bytes)) break;
                ++binary_;
                keep(event.time, event.cap, Kind::binary, p->payload.bytes);
            }
            break;
        default: break;
    }
}

pass::Interests UserEventsContributor::interests() const {
    return pass::Interests::where([](std::uint16_t tag) {
        using namespace eventlog;
        return tag == UserMessage::tag || tag == UserMarker::tag || tag == UserBinaryMessage::tag;
    });
}

void UserEventsContributor::contribute(ProfileContext& ctx, std::uint64_t /*end*/) {
    if (records_.empty() && messages_ == 0) return;
    Profile& p = ctx.profile;
    const Categories& cat = ctx.categories;
    UserMarkers m(ctx, forgotten_names_);
    StringHandle trace_event = p.handle_for_string("traceEvent");
    StringHandle trace_binary = p.handle_for_string("traceBinaryEvent");
    runtime::UserSpanPairer pairer;
    pairer.reserve(span_closes_);  // at most one span per close: no doubling at the peak of memory
    std::uint64_t edges = 0;

    for (std::size_t i = 0; i < records_.size(); ++i) {
        const Record& r = records_[i];
        std::string_view t = text(r);
        if (r.kind == Kind::span_edge) {
            ++edges;
            runtime::SpanOwner owner = r.cap ? kCapabilityOwner | *r.cap : kNoCapabilityOwner;
            if (r.running) owner = *r.running;
            pairer.edge(owner, r.time, runtime::SpanMessage{r.edge, r.convention, t});
            continue;
        }
        Place where = m.place(r.cap, r.running, r.time);
        StringHandle who = p.handle_for_string(where.who);
        MarkerTiming at = MarkerTiming::instant(ProfileContext::at(r.time));
        switch (r.kind) {
            case Kind::message: {
                StringHandle message = p.handle_for_string(t);
                p.add_marker(where.track, at, trace_event, cat.user,
                             UserMessageMarker{.message = message, .thread = who, .thread_id = where.thread});
                break;
            }
            case Kind::marker: {
                StringHandle name = p.handle_for_string(kMarkerRow);
                StringHandle full = p.handle_for_string(t);
                const UserMarkerMarker marker{.text = full, .thread = who, .thread_id = where.thread};
                p.add_marker(where.track, at, name, cat.user, marker);
                if (where.track != ctx.process_track) p.add_marker(ctx.process_track, at, name, cat.user, marker);
                break;
            }
            case Kind::binary: {
                runtime::BinaryPreview preview = runtime::preview_binary(t, kBinaryPreviewBytes);
                StringHandle hex = p.handle_for_string(preview.hex);
                StringHandle as_text = p.handle_for_string(preview.text);
                StringHandle encoding = p.handle_for_string(preview.utf8 ? "UTF-8 text" : "binary (not UTF-8)");
                p.add_marker(where.track, at, trace_binary, cat.user,
                             UserBinaryMessageMarker{.length = t.size(),
                                                     .hex = hex,
                                                     .text = as_text,
                                                     .encoding = encoding,
                                                     .thread = who,
                                                     .thread_id = where.thread});
                break;
            }
            case Kind::span_edge: break;
        }
    }

    pairer.finish();
    for (const runtime::PairedSpan& s : pairer.spans()) {
        Place where = m.place_owner(s.owner, s.start);
        StringHandle name = p.handle_for_string(span_row(s.convention));
        StringHandle full = p.handle_for_string(s.name);
        StringHandle who = p.handle_for_string(where.who);
        StringHandle convention = p.handle_for_string(runtime::convention_text(s.convention));
        p.add_marker(
            where.track, MarkerTiming::interval(ProfileContext::at(s.start), ProfileContext::at(s.end)), name, cat.user,
            UserSpanMarker{
                .span = full, .thread = who, .convention = convention, .depth = s.depth, .thread_id = where.thread});
    }
    std::uint64_t unmatched_stops = 0, unclosed_starts = 0;
    for (const runtime::UnmatchedEdge& u : pairer.unmatched()) {
        bool stop = u.edge == runtime::SpanEdge::close;
        if (stop) {
            ++unmatched_stops;
            diagnostics_.add(Diagnostic::user_span_stop_without_start);
        } else {
            ++unclosed_starts;
            diagnostics_.add(Diagnostic::user_span_start_without_stop);
        }
        Place where = m.place_owner(u.owner, u.time);
        StringHandle name = p.handle_for_string(kUnmatchedRow);
        StringHandle problem =
            p.handle_for_string(stop ? "STOP without START on this thread" : "START never stopped on this thread");
        StringHandle full = p.handle_for_string(u.name);
        StringHandle message = p.handle_for_string(edge_text(u.convention, u.edge, u.name));
        StringHandle who = p.handle_for_string(where.who);
        p.add_marker(
            where.track, MarkerTiming::instant(ProfileContext::at(u.time)), name, cat.warning,
            UserSpanUnmatchedMarker{
                .problem = problem, .span = full, .message = message, .thread = who, .thread_id = where.thread});
    }

    ExtraSectionHandle s = p.add_extra_section(ctx.section_label("User events"));
    p.add_extra_entry(s, "traceEvent messages", ExtraValue::integer(static_cast<std::int64_t>(messages_)));
    if (!user_messages_)
        p.add_extra_entry(s, "Messages shown", ExtraValue::text("span messages only (--no-user-messages)"));
    p.add_extra_entry(s, "traceMarker markers", ExtraValue::integer(static_cast<std::int64_t>(markers_)));
    p.add_extra_entry(s, "traceBinaryEvent messages", ExtraValue::integer(static_cast<std::int64_t>(binary_)));
    p.add_extra_entry(s, "Span messages (START/STOP, GHC:started/finished)",
                      ExtraValue::integer(static_cast<std::int64_t>(edges)));
    p.add_extra_entry(s, "Paired spans", ExtraValue::integer(static_cast<std::int64_t>(pairer.spans().size())));
    if (unmatched_stops)
        p.add_extra_entry(s, "STOP without START", ExtraValue::integer(static_cast<std::int64_t>(unmatched_stops)));
    if (unclosed_starts)
        p.add_extra_entry(s, "START never stopped", ExtraValue::integer(static_cast<std::int64_t>(unclosed_starts)));
}

}  // namespace el2fx::convert

#include "convert/runtime_events_contributor.hpp"

#include <algorithm>
#include <array>
#include <optional>

#include "analysis/runtime/event_fields_text.hpp"
#include "util/utf8.hpp"

namespace el2fx::convert {
namespace {

using namespace el2fx::fxprof;
using namespace el2fx::eventlog;

// Shown as generic "RTS event" markers.
constexpr std::array<std::uint16_t, 32> kGeneric = {Shutdown::tag,
                                                    Startup::tag,
                                                    Version::tag,
                                                    ProgramInvocation::tag,
                                                    InternString::tag,
                                                    EdenStartReceive::tag,
                                                    EdenEndReceive::tag,
                                                    CreateProcess::tag,
                                                    KillProcess::tag,
                                                    AssignThreadToProcess::tag,
                                                    CreateMachine::tag,
                                                    KillMachine::tag,
                                                    SendMessage::tag,
                                                    ReceiveMessage::tag,
                                                    SendReceiveLocalMessage::tag,
                                                    MerStartParConjunction::tag,
                                                    MerStopParConjunction::tag,
                                                    MerStopParConjunct::tag,
                                                    MerCreateSpark::tag,
                                                    MerFutCreate::tag,
                                                    MerFutWaitNosuspend::tag,
                                                    MerFutWaitSuspended::tag,
                                                    MerFutSignal::tag,
                                                    MerLookingForGlobalContext::tag,
                                                    MerWorkStealing::tag,
                                                    MerReleaseContext::tag,
                                                    MerEngineSleeping::tag,
                                                    MerLookingForLocalSpark::tag,
                                                    MerCallingMain::tag,
                                                    PerfName::tag,
                                                    PerfCounter::tag,
                                                    PerfTracepoint::tag};

// Shown with schemas of their own.
constexpr std::array<std::uint16_t, 15> kDedicated = {
    TaskCreate::tag,      TaskMigrate::tag, TaskDelete::tag,      CapCreate::tag,          CapDelete::tag,
    CapDisable::tag,      CapEnable::tag,   CapsetCreate::tag,    CapsetDelete::tag,       CapsetAssignCap::tag,
    CapsetRemoveCap::tag, LogMsg::tag,      TickyCounterDef::tag, TickyCounterSample::tag, TickyBeginSample::tag};

constexpr auto make_shown() {
    std::array<std::uint16_t, kGeneric.size() + kDedicated.size()> all{};
    std::size_t n = 0;
    for (auto t : kGeneric) all[n++] = t;
    for (auto t : kDedicated) all[n++] = t;
    return all;
}
constexpr auto kShown = make_shown();

bool is_generic(std::uint16_t tag) { return std::find(kGeneric.begin(), kGeneric.end(), tag) != kGeneric.end(); }

std::string_view capset_type_text(std::uint64_t type) {
    switch (type) {
        case 1: return "custom";
        case 2: return "OS process";
        case 3: return "clock domain";
        default: return "unknown";
    }
}

std::string hex(std::uint64_t v) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    do {
        out.insert(out.begin(), kHex[v & 0xF]);
        v >>= 4;
    } while (v);
    return "0x" + out;
}

// ---- marker types -------------------------------------------------------------------------

struct TaskEventMarker {
    static constexpr MarkerTypeInfo kType{.name = "TaskEvent",
                                          .display = kChartDisplay,
                                          .tooltip_label = "{marker.name} {marker.data.task}",
                                          .table_label = "task {marker.data.task}, OS thread {marker.data.osThread}",
                                          .description =
                                              "A task (an OS thread of the runtime) was created, moved to another "
                                              "capability or deleted (TASK_CREATE, TASK_MIGRATE, TASK_DELETE)."};
    static constexpr std::array kFields{StaticField{"task", "Task", FieldFormat::string},
                                        StaticField{"osThread", "OS thread id", FieldFormat::tid},
                                        StaticField{"from", "From capability", FieldFormat::integer},
                                        StaticField{"cap", "Capability", FieldFormat::integer}};
    StringHandle task;
    std::int64_t os_thread;  // -1: not known
    std::int64_t from;       // -1: not a migration
    std::int32_t cap;
    auto field_values() const { return std::tuple{task, os_thread, from, cap}; }
};

struct CapabilityEventMarker {
    static constexpr MarkerTypeInfo kType{.name = "CapabilityEvent",
                                          .display = kTimelineDisplay,
                                          .tooltip_label = "{marker.name}",
                                          .table_label = "capability {marker.data.cap}",
                                          .description =
                                              "A capability was created, deleted, disabled or enabled "
                                              "(CAP_CREATE, CAP_DELETE, CAP_DISABLE, CAP_ENABLE)."};
    static constexpr std::array kFields{StaticField{"cap", "Capability", FieldFormat::integer}};
    std::uint64_t cap;
    auto field_values() const { return std::tuple{cap}; }
};

struct CapsetEventMarker {
    static constexpr MarkerTypeInfo kType{.name = "CapsetEvent",
                                          .display = kChartDisplay,
                                          .tooltip_label = "{marker.name}: {marker.data.what}",
                                          .table_label = "capset {marker.data.capset}: {marker.data.what}",
                                          .description =
                                              "A capability set (the OS process, the clock domain) was created or "
                                              "deleted, or a capability added to or removed from it (CAPSET_*)."};
    static constexpr std::array kFields{StaticField{"capset", "Capability set", FieldFormat::integer},
                                        StaticField{"what", "Event", FieldFormat::string}};
    std::uint64_t capset;
    StringHandle what;
    auto field_values() const { return std::tuple{capset, what}; }
};

struct RtsLogMarker {
    static constexpr MarkerTypeInfo kType{.name = "RtsLog",
                                          .display = kChartDisplay,
                                          .tooltip_label = "{marker.data.message}",
                                          .table_label = "{marker.data.message}",
                                          .chart_label = "{marker.data.message}",
                                          .description = "A debug message of the runtime system (LOG_MSG)."};
    static constexpr std::array kFields{StaticField{"message", "Message", FieldFormat::string}};
    StringHandle message;
    auto field_values() const { return std::tuple{message}; }
};

struct RtsEventMarker {
    static constexpr MarkerTypeInfo kType{.name = "RtsEvent",
                                          .display = kChartDisplay,
                                          .tooltip_label = "{marker.data.event} {marker.data.fields}",
                                          .table_label = "{marker.data.fields}",
                                          .chart_label = "{marker.data.fields}",
                                          .description =
                                              "An event of an old GHC or another runtime (Eden, Mercury, "
                                              "ghc-events-perf) shown with its fields as written."};
    static constexpr std::array kFields{StaticField{"event", "Event type", FieldFormat::string},
                                        StaticField{"tag", "Tag", FieldFormat::integer},
                                        StaticField{"fields", "Fields", FieldFormat::string}};
    StringHandle event;
    std::uint16_t tag;
    StringHandle fields;
    auto field_values() const { return std::tuple{event, tag, fields}; }
};

struct CapabilityDisabledMarker {
    static constexpr MarkerTypeInfo kType{
        .name = "CapabilityDisabled",
        .display = kTimelineDisplay,
        .tooltip_label = "Capability {marker.data.cap} disabled",
        .table_label = "capability {marker.data.cap}, until {marker.data.until}",
        .description =
            "The capability was disabled (CAP_DISABLE until CAP_ENABLE or CAP_DELETE), "
            "e.g. by setNumCapabilities."};
    static constexpr std::array kFields{StaticField{"cap", "Capability", FieldFormat::integer},
                                        StaticField{"until", "Until", FieldFormat::string}};
    CapNo cap;
    StringHandle until;
    auto field_values() const { return std::tuple{cap, until}; }
};

struct TickySampleMarker {
    static constexpr MarkerTypeInfo kType{
        .name = "TickySample",
        .display = kTimelineDisplay,
        .tooltip_label = "Ticky sample: {marker.data.counters} counters",
        .table_label = "{marker.data.counters} counters, {marker.data.entries} entries",
        .description =
            "The runtime sampled (and reset) the ticky-ticky counters "
            "(TICKY_COUNTER_BEGIN_SAMPLE and the samples after it)."};
    static constexpr std::array kFields{StaticField{"counters", "Counters sampled", FieldFormat::integer},
                                        StaticField{"entries", "Entries", FieldFormat::integer},
                                        StaticField{"allocs", "Allocated", FieldFormat::bytes}};
    std::uint64_t counters;
    std::uint64_t entries;
    std::uint64_t allocs;
    auto field_values() const { return std::tuple{counters, entries, allocs}; }
};

}  // namespace

std::span<const std::uint16_t> RuntimeEventsContributor::shown_tags() const { return kShown; }

void RuntimeEventsContributor::generic(const Event& event, std::int32_t cap) {
    Pending m;
    m.time = event.time;
    m.cap = cap;
    m.kind = Kind::generic;
    m.tag = event.tag;
    m.text = runtime::event_fields_text(event.payload);
    if (const auto* p = event.as<PerfCounter>()) {
        auto it = perf_names_.find(p->perf_num);
        if (it != perf_names_.end()) m.text = "perf \"" + it->second + "\", " + m.text;
        if (auto c = tasks_.cap_of_os_thread(p->tid)) m.cap = *c;
    } else if (const auto* t = event.as<PerfTracepoint>()) {
        auto it = perf_names_.find(t->perf_num);
        if (it != perf_names_.end()) m.text = "perf \"" + it->second + "\", " + m.text;
        if (auto c = tasks_.cap_of_os_thread(t->tid)) m.cap = *c;
    }
    pending_.push_back(std::move(m));
}

void RuntimeEventsContributor::handle(const Event& event) {
    std::int32_t here = event.cap && *event.cap != kGlobalCap ? std::int32_t{*event.cap} : -1;
    auto add = [&](Kind kind, std::int32_t cap, std::uint64_t a = 0, std::uint64_t b = 0, std::uint64_t c = 0) {
        Pending m;
        m.time = event.time;
        m.cap = cap;
        m.kind = kind;
        m.a = a;
        m.b = b;
        m.c = c;
        m.tag = event.tag;
        pending_.push_back(std::move(m));
    };
    switch (event.tag) {
        case TaskCreate::tag:
            if (const auto* p = event.as<TaskCreate>()) {
                tasks_.created(p->task, p->cap, p->tid, event.time);
                add(Kind::task_created, p->cap, p->task, p->tid, p->cap);
            }
            return;
        case TaskMigrate::tag:
            if (const auto* p = event.as<TaskMigrate>()) {
                tasks_.migrated(p->task, p->new_cap);
                add(Kind::task_migrated, p->new_cap, p->task, p->cap, p->new_cap);
            }
            return;
        case TaskDelete::tag:
            if (const auto* p = event.as<TaskDelete>()) {
                std::optional<runtime::TaskInfo> info = tasks_.deleted(p->task);
                add(Kind::task_deleted, info ? std::int32_t{info->cap} : here, p->task, info ? info->os_tid : 0,
                    info ? 1 : 0);
            }
            return;
        case CapCreate::tag:
            if (const auto* p = event.as<CapCreate>()) add(Kind::cap_created, p->cap, p->cap);
            return;
        case CapDelete::tag:
            if (const auto* p = event.as<CapDelete>()) {
                caps_.deleted(p->cap, event.time);
                add(Kind::cap_deleted, p->cap, p->cap);
            }
            return;
        case CapDisable::tag:
            if (const auto* p = event.as<CapDisable>()) {
                caps_.disabled(p->cap, event.time);
                add(Kind::cap_disabled, p->cap, p->cap);
            }
            return;
        case CapEnable::tag:
            if (const auto* p = event.as<CapEnable>()) {
                caps_.enabled(p->cap, event.time);
                add(Kind::cap_enabled, p->cap, p->cap);
            }
            return;
        case CapsetCreate::tag:
            if (const auto* p = event.as<CapsetCreate>()) add(Kind::capset_created, -1, p->capset, p->type);
            return;
        case CapsetDelete::tag:
            if (const auto* p = event.as<CapsetDelete>()) add(Kind::capset_deleted, -1, p->capset);
            return;
        case CapsetAssignCap::tag:
            if (const auto* p = event.as<CapsetAssignCap>()) add(Kind::capset_assigned, -1, p->capset, p->cap);
            return;
        case CapsetRemoveCap::tag:
            if (const auto* p = event.as<CapsetRemoveCap>()) add(Kind::capset_removed, -1, p->capset, p->cap);
            return;
        case LogMsg::tag:
            if (const auto* p = event.as<LogMsg>()) {
                add(Kind::log, here);
                utf8::append_sanitized(pending_.back().text, p->message.bytes);
            }
            return;
        case TickyCounterDef::tag:
            if (const auto* p = event.as<TickyCounterDef>()) ticky_.define(*p);
            return;
        case TickyCounterSample::tag:
            if (const auto* p = event.as<TickyCounterSample>()) ticky_.sample(event.time, *p);
            return;
        case TickyBeginSample::tag:
            if (event.as<TickyBeginSample>()) ticky_.begin_round(event.time);
            return;
        case PerfName::tag:
            if (const auto* p = event.as<PerfName>()) {
                std::string name;
                utf8::append_sanitized(name, p->perf_name.bytes);
                perf_names_[p->perf_num] = std::move(name);
            }
            break;
        default: break;
    }
    if (is_generic(event.tag) && !std::holds_alternative<UnknownEvent>(event.payload)) generic(event, here);
}

pass::Interests RuntimeEventsContributor::interests() const {
    return pass::Interests::where([](std::uint16_t tag) {
        switch (tag) {
            case TaskCreate::tag:
            case TaskMigrate::tag:
            case TaskDelete::tag:
            case CapCreate::tag:
            case CapDelete::tag:
            case CapDisable::tag:
            case CapEnable::tag:
            case CapsetCreate::tag:
            case CapsetDelete::tag:
            case CapsetAssignCap::tag:
            case CapsetRemoveCap::tag:
            case LogMsg::tag:
            case TickyCounterDef::tag:
            case TickyCounterSample::tag:
            case TickyBeginSample::tag:
            case PerfName::tag: return true;
            default: return is_generic(tag);
        }
    });
}

void RuntimeEventsContributor::contribute(ProfileContext& ctx, std::uint64_t end) {
    caps_.finish(end);
    add_markers(ctx);
    add_ticky(ctx);
}

void RuntimeEventsContributor::add_markers(ProfileContext& ctx) {
    if (pending_.empty() && caps_.disabled_spans().empty()) return;
    Profile& p = ctx.profile;
    auto track_of = [&](std::int32_t cap) {
        if (cap < 0) return ctx.process_track;
        return ctx.capability_track(static_cast<CapNo>(cap)).value_or(ctx.process_track);
    };
    auto name = [&](std::string_view s) { return p.handle_for_string(s); };

    for (const Pending& m : pending_) {
        MarkerTiming at = MarkerTiming::instant(ProfileContext::at(m.time));
        ThreadHandle track = track_of(m.cap);
        switch (m.kind) {
            case Kind::task_created:
            case Kind::task_migrated:
            case Kind::task_deleted: {
                StringHandle task = name(hex(m.a));
                StringHandle marker = name(m.kind == Kind::task_created    ? "Task created"
                                           : m.kind == Kind::task_migrated ? "Task migrated"
                                                                           : "Task deleted");
                std::int64_t os_tid = m.kind == Kind::task_created          ? static_cast<std::int64_t>(m.b)
                                      : m.kind == Kind::task_deleted && m.c ? static_cast<std::int64_t>(m.b)
                                                                            : -1;
                std::int64_t from = m.kind == Kind::task_migrated ? static_cast<std::int64_t>(m.b) : -1;
                p.add_marker(track, at, marker, ctx.categories.other,
                             TaskEventMarker{.task = task, .os_thread = os_tid, .from = from, .cap = m.cap});
                break;
            }
            case Kind::cap_created:
            case Kind::cap_deleted:
            case Kind::cap_disabled:
            case Kind::cap_enabled: {
                StringHandle marker = name(m.kind == Kind::cap_created    ? "Capability created"
                                           : m.kind == Kind::cap_deleted  ? "Capability deleted"
                                           : m.kind == Kind::cap_disabled ? "Capability disabled"
                                                                          : "Capability enabled");
                p.add_marker(track, at, marker, ctx.categories.other, CapabilityEventMarker{.cap = m.a});
                break;
            }
            case Kind::capset_created:
            case Kind::capset_deleted:
            case Kind::capset_assigned:
            case Kind::capset_removed: {
                std::string what;
                const char* marker_name = "";
                switch (m.kind) {
                    case Kind::capset_created:
                        marker_name = "Capset created";
                        what = "created, type " + std::string(capset_type_text(m.b));
                        break;
                    case Kind::capset_deleted:
                        marker_name = "Capset deleted";
                        what = "deleted";
                        break;
                    case Kind::capset_assigned:
                        marker_name = "Capability added to capset";
                        what = "capability " + std::to_string(m.b) + " added";
                        break;
                    default:
                        marker_name = "Capability removed from capset";
                        what = "capability " + std::to_string(m.b) + " removed";
                        break;
                }
                StringHandle marker = name(marker_name);
                StringHandle what_s = name(what);
                p.add_marker(track, at, marker, ctx.categories.other, CapsetEventMarker{.capset = m.a, .what = what_s});
                break;
            }
            case Kind::log: {
                StringHandle marker = name("RTS log");
                StringHandle message = name(m.text);
                p.add_marker(track, at, marker, ctx.categories.other, RtsLogMarker{.message = message});
                break;
            }
            case Kind::generic: {
                std::string_view type = runtime::event_type_name(m.tag);
                StringHandle marker = name(type);
                StringHandle fields = name(m.text);
                p.add_marker(track, at, marker, ctx.categories.other,
                             RtsEventMarker{.event = marker, .tag = m.tag, .fields = fields});
                break;
            }
        }
    }

    for (const runtime::DisabledSpan& s : caps_.disabled_spans()) {
        StringHandle marker = name("Capability disabled");
        StringHandle until = name(s.closed ? "enabled or deleted" : "the end of the log");
        p.add_marker(track_of(s.cap), MarkerTiming::interval(ProfileContext::at(s.start), ProfileContext::at(s.end)),
                     marker, ctx.categories.idle, CapabilityDisabledMarker{.cap = s.cap, .until = until});
    }
}

void RuntimeEventsContributor::add_ticky(ProfileContext& ctx) {
    if (ticky_.empty()) return;
    Profile& p = ctx.profile;
    int weight = 60;
    for (const runtime::TickyCounter* c : ticky_.top_by_entries(kTickyCounterTracks)) {
        std::string label = "Ticky: " + c->display_name();
        std::string description = "Entries of " + c->display_name() +
                                  " counted by ticky-ticky profiling (TICKY_COUNTER_SAMPLE); one of the " +
                                  std::to_string(kTickyCounterTracks) + " most entered counters.";
        CounterHandle h =
            p.add_counter(ctx.process, label, "Ticky", description,
                          CounterDisplay::event_count(label, "entries", "Entries", GraphColor::magenta, weight++));
        for (const runtime::TickySample& s : c->samples)
            p.add_counter_sample(h, ProfileContext::at(s.time), static_cast<double>(s.entries));
    }
    if (!ticky_.rounds().empty()) {
        StringHandle marker = p.handle_for_string("Ticky sample");
        for (const runtime::TickyRound& r : ticky_.rounds())
            p.add_marker(ctx.process_track, MarkerTiming::instant(ProfileContext::at(r.time)), marker,
                         ctx.categories.other,
                         TickySampleMarker{.counters = r.samples, .entries = r.entries, .allocs = r.allocs});
    }
    std::vector<const runtime::TickyCounter*> top = ticky_.top_by_entries(kTickySummaryRows);
    ExtraSectionHandle s = p.add_extra_section(ctx.section_label("Ticky-ticky counters (most entered)"));
    p.add_extra_entry(s, "Counters", ExtraValue::integer(static_cast<std::int64_t>(ticky_.counters().size())));
    p.add_extra_entry(s, "Samples", ExtraValue::integer(static_cast<std::int64_t>(ticky_.total_samples())));
    for (const runtime::TickyCounter* c : top) {
        std::string value = std::to_string(c->entries) + " entries, " + std::to_string(c->allocs) +
                            " bytes allocated by it, " + std::to_string(c->allocd) + " bytes of its closures allocated";
        p.add_extra_entry(s, c->display_name(), ExtraValue::text(value));
    }
}

}  // namespace el2fx::convert

#include "convert/sparks_contributor.hpp"

#include <array>
#include <string>
#include <vector>
#include <limits>

#include "analysis/run/run_census.hpp"

namespace el2fx::convert {
namespace {

using namespace el2fx::fxprof;
using eventlog::CapNo;
using runtime::SparkCounter;
using runtime::SparkEventKind;

constexpr std::array<std::uint16_t, 11> kShown = {
    eventlog::RunSpark::tag,      eventlog::StealSpark::tag,  eventlog::CreateSparkThread::tag,
    eventlog::SparkCounters::tag, eventlog::SparkCreate::tag, eventlog::SparkDud::tag,
    eventlog::SparkOverflow::tag, eventlog::SparkRun::tag,    eventlog::SparkSteal::tag,
    eventlog::SparkFizzle::tag,   eventlog::SparkGC::tag};

std::string capitalised(std::string_view s) {
    std::string out(s);
    if (!out.empty() && out[0] >= 'a' && out[0] <= 'z') out[0] = static_cast<char>(out[0] - 'a' + 'A');
    return out;
}

// Sparks per millisecond between two SPARK_COUNTERS samples, drawn as lines on one scale.
struct SparkRatesMarker {
    // The rate series, drawn in this order: the usually small ones first, so that created and
    // converted are drawn over them; a line at zero last, so that the scale starts at zero
    // (the track scales its lines from their lowest value) and series at zero sit under it.
    static constexpr std::array kGraphs{StaticGraph{"dud", MarkerGraphType::line, GraphColor::ink},
                                        StaticGraph{"overflowed", MarkerGraphType::line, GraphColor::orange},
                                        StaticGraph{"gcd", MarkerGraphType::line, GraphColor::purple},
                                        StaticGraph{"fizzled", MarkerGraphType::line, GraphColor::red},
                                        StaticGraph{"converted", MarkerGraphType::line, GraphColor::green},
                                        StaticGraph{"created", MarkerGraphType::line, GraphColor::blue},
                                        StaticGraph{"zero", MarkerGraphType::line, GraphColor::grey}};
    static constexpr MarkerTypeInfo kType{
        .name = "SparkRates",
        .display = kChartDisplay,
        .tooltip_label = "{marker.name}: {marker.data.created} created, {marker.data.converted} converted per ms",
        .table_label =
            "{marker.data.created} created, {marker.data.converted} converted, "
            "{marker.data.fizzled} fizzled per ms; pool {marker.data.poolEnd}",
        .chart_label = "{marker.data.converted} converted per ms",
        .description =
            "Sparks per millisecond between two SPARK_COUNTERS samples (written at "
            "start-up, at every GC and at shutdown), all on one scale; the pool size "
            "is a level, given at both ends of the span.",
        .graphs = kGraphs};
    // Tooltip order: the main flow first.
    static constexpr std::array kFields{StaticField{"created", "Created per ms", FieldFormat::decimal},
                                        StaticField{"converted", "Converted per ms", FieldFormat::decimal},
                                        StaticField{"fizzled", "Fizzled per ms", FieldFormat::decimal},
                                        StaticField{"gcd", "GC'd per ms", FieldFormat::decimal},
                                        StaticField{"overflowed", "Overflowed per ms", FieldFormat::decimal},
                                        StaticField{"dud", "Dud per ms", FieldFormat::decimal},
                                        StaticField{"poolStart", "Pool size at the start", FieldFormat::integer},
                                        StaticField{"poolEnd", "Pool size at the end", FieldFormat::integer},
                                        StaticField{"zero", "", FieldFormat::integer, true}};
    const runtime::SparkRateSpan& span;
    auto field_values() const {
        return std::tuple{span.per_ms(SparkCounter::created),
                          span.per_ms(SparkCounter::converted),
                          span.per_ms(SparkCounter::fizzled),
                          span.per_ms(SparkCounter::gcd),
                          span.per_ms(SparkCounter::overflowed),
                          span.per_ms(SparkCounter::dud),
                          span.pool_start,
                          span.pool_end,
                          0};
    }
};

struct SparkStealMarker {
    static constexpr MarkerTypeInfo kType{
        .name = "SparkSteal",
        .display = kChartDisplay,
        .tooltip_label = "{marker.name}: {marker.data.count} from capability {marker.data.victim}",
        .table_label = "{marker.data.count} from capability {marker.data.victim}",
        .chart_label = "{marker.data.count} from cap {marker.data.victim}",
        .description =
            "Sparks this capability stole from another one's pool (SPARK_STEAL); "
            "events close together are one marker."};
    static constexpr std::array kFields{StaticField{"count", "Sparks", FieldFormat::integer},
                                        StaticField{"victim", "Stolen from capability", FieldFormat::integer},
                                        StaticField{"cap", "Capability", FieldFormat::integer}};
    std::uint64_t count;
    CapNo victim;
    CapNo cap;
    auto field_values() const { return std::tuple{count, victim, cap}; }
};

struct SparkEventsMarker {
    static constexpr MarkerTypeInfo kType{.name = "SparkEvents",
                                          .display = kChartDisplay,
                                          .tooltip_label = "{marker.name}: {marker.data.count}",
                                          .table_label = "{marker.data.count}",
                                          .chart_label = "{marker.data.count}",
                                          .description =
                                              "Spark events of one kind on this capability (+RTS -lf); "
                                              "events close together are one marker with their count."};
    static constexpr std::array kFields{StaticField{"count", "Sparks", FieldFormat::integer},
                                        StaticField{"cap", "Capability", FieldFormat::integer}};
    std::uint64_t count;
    CapNo cap;
    auto field_values() const { return std::tuple{count, cap}; }
};

struct SparkThreadCreatedMarker {
    static constexpr MarkerTypeInfo kType{.name = "SparkThreadCreated",
                                          .display = kChartDisplay,
                                          .tooltip_label = "Spark thread {marker.data.thread} created",
                                          .table_label = "thread {marker.data.thread}",
                                          .description =
                                              "The capability started a Haskell thread to run sparks "
                                              "(CREATE_SPARK_THREAD)."};
    static constexpr std::array kFields{StaticField{"thread", "Spark thread", FieldFormat::integer},
                                        StaticField{"cap", "Capability", FieldFormat::integer}};
    eventlog::ThreadId thread;
    CapNo cap;
    auto field_values() const { return std::tuple{thread, cap}; }
};

bool is_work(SparkEventKind k) {
    return k == SparkEventKind::created || k == SparkEventKind::run || k == SparkEventKind::stolen;
}

}  // namespace

SparksContributor::SparksContributor(const ConvertOptions& options) : bursts_(options.spark_burst_gap_ns) {}

std::span<const std::uint16_t> SparksContributor::shown_tags() const { return kShown; }

void SparksContributor::handle(const eventlog::Event& event) {
    using namespace eventlog;
    if (event.tag == SparkCounters::tag) {
        if (const auto* p = event.as<SparkCounters>(); p && event.cap)
            add_counter_sample(*event.cap, event.time, runtime::spark_counts(*p));
        return;
    }
    if (auto kind = runtime::spark_event_kind(event.tag)) {
        if (!event.cap) return;
        std::optional<CapNo> victim;
        if (const auto* steal = event.as<SparkSteal>()) victim = steal->victim_cap;
        if (event.tag == SparkSteal::tag && !victim) return;  // too short, counted by the decoder
        bursts_.add(*event.cap, event.time, *kind, victim);
        return;
    }
    switch (event.tag) {
        case RunSpark::tag:
            if (event.as<RunSpark>() && event.cap) {
                ++old_events_;
                bursts_.add(*event.cap, event.time, SparkEventKind::run);
            }
            break;
        case StealSpark::tag:
            if (const auto* p = event.as<StealSpark>(); p && event.cap) {
                ++old_events_;
                bursts_.add(*event.cap, event.time, SparkEventKind::stolen, p->victim_cap);
            }
            break;
        case CreateSparkThread::tag:
            if (const auto* p = event.as<CreateSparkThread>(); p && event.cap)
                spark_threads_.push_back({event.time, *event.cap, p->spark_thread});
            break;
        default: break;
    }
}

pass::Interests SparksContributor::interests() const {
    return pass::Interests::where([](std::uint16_t tag) {
        using namespace eventlog;
        return tag == SparkCounters::tag || runtime::spark_event_kind(tag) || tag == RunSpark::tag ||
               tag == StealSpark::tag || tag == CreateSparkThread::tag;
    });
}

void SparksContributor::contribute(ProfileContext& ctx, std::uint64_t /*end*/) {
    bursts_.finish();
    flush_summed();
    add_rates(ctx);
    add_markers(ctx);
    add_summary(ctx);
}

void SparksContributor::begin(ProfileContext& ctx) {
    context_ = &ctx;
    if (!ctx.census || ctx.census->spark_series.empty()) return;
    const auto& caps = ctx.census->spark_series;
    const std::uint64_t min_span = ctx.span_detail.resolution;
    if (caps.size() > kMaxCapabilitiesWithOwnSparkTracks) {
        for (const auto& [cap, nonzero] : caps)
            for (bool any : nonzero)
                if (any && !summed_) summed_.emplace(min_span);
        return;
    }
    for (const auto& [cap, nonzero] : caps)
        for (bool any : nonzero)
            if (any && !per_cap_.count(cap)) per_cap_.emplace(cap, runtime::SparkRateSpans(min_span));
}

void SparksContributor::add_counter_sample(CapNo cap, std::uint64_t time, const runtime::SparkCounts& counts) {
    runtime::SparkCounts& last = latest_[cap];  // zero before a capability's first sample
    for (std::size_t k = 0; k < runtime::kSparkCounterCount; ++k) sum_[k] = sum_[k] - last[k] + counts[k];
    last = counts;
    if (auto it = per_cap_.find(cap); it != per_cap_.end()) it->second.add(time, counts);
    if (!summed_) return;
    // Several capabilities' samples at one time make one sample of the sum.
    if (pending_sum_ && pending_sum_->time != time) flush_summed();
    pending_sum_ = runtime::SparkCounterSample{time, sum_};
}

void SparksContributor::flush_summed() {
    if (!pending_sum_) return;
    if (summed_) summed_->add(pending_sum_->time, pending_sum_->counts);
    pending_sum_.reset();
}

void SparksContributor::add_rates(ProfileContext& ctx) {
    if (per_cap_.empty() && !summed_) return;
    Profile& p = ctx.profile;
    auto add = [&](runtime::SparkRateSpans& rates, ThreadHandle track, StringHandle name) {
        rates.finish();
        for (const runtime::SparkRateSpan& s : rates.spans()) {
            p.add_marker(track, MarkerTiming::interval(ProfileContext::at(s.start), ProfileContext::at(s.end)), name,
                         ctx.categories.running, SparkRatesMarker{s});
        }
    };
    for (auto& [cap, rates] : per_cap_)
        add(rates, ctx.capability_track(cap).value_or(ctx.process_track),
            p.handle_for_string("Spark rates (cap " + std::to_string(cap) + ")"));
    if (summed_)
        add(*summed_, ctx.process_track,
            p.handle_for_string("Spark rates (all " + std::to_string(ctx.census->spark_series.size()) + " caps)"));
}

void SparksContributor::add_markers(ProfileContext& ctx) {
    if (bursts_.bursts().empty() && spark_threads_.empty()) return;
    Profile& p = ctx.profile;
    std::array<std::optional<StringHandle>, runtime::kSparkEventKindCount> names;
    for (const runtime::SparkBurst& b : bursts_.bursts()) {
        ThreadHandle track = ctx.capability_track(b.cap).value_or(ctx.process_track);
        auto& name = names[static_cast<std::size_t>(b.kind)];
        if (!name) name = p.handle_for_string(runtime::spark_event_name(b.kind));
        MarkerTiming timing = b.count == 1
                                  ? MarkerTiming::instant(ProfileContext::at(b.start))
                                  : MarkerTiming::interval(ProfileContext::at(b.start), ProfileContext::at(b.end));
        CategoryHandle category = is_work(b.kind) ? ctx.categories.running : ctx.categories.other;
        if (b.victim) {
            p.add_marker(track, timing, *name, category,
                         SparkStealMarker{.count = b.count, .victim = *b.victim, .cap = b.cap});
        } else {
            p.add_marker(track, timing, *name, category, SparkEventsMarker{.count = b.count, .cap = b.cap});
        }
    }
    if (spark_threads_.empty()) return;
    StringHandle name = p.handle_for_string("Spark thread created");
    for (const SparkThread& s : spark_threads_) {
        ThreadHandle track = ctx.capability_track(s.cap).value_or(ctx.process_track);
        p.add_marker(track, MarkerTiming::instant(ProfileContext::at(s.time)), name, ctx.categories.other,
                     SparkThreadCreatedMarker{.thread = s.thread, .cap = s.cap});
    }
}

void SparksContributor::add_summary(ProfileContext& ctx) {
    bool any_events = false;
    for (std::size_t k = 0; k < runtime::kSparkEventKindCount; ++k)
        any_events = any_events || bursts_.events(static_cast<SparkEventKind>(k)) > 0;
    runtime::SparkCounts t{};  // each capability's last counts, added up (as +RTS -s)
    for (const auto& [cap, counts] : latest_)
        for (std::size_t k = 0; k < runtime::kSparkCounterCount; ++k) t[k] += counts[k];
    bool any_counts = false;
    for (std::uint64_t n : t) any_counts = any_counts || n > 0;
    if (!any_counts && !any_events) return;  // a program without sparks: nothing to say
    Profile& p = ctx.profile;
    ExtraSectionHandle s = p.add_extra_section(ctx.section_label("Sparks"));
    if (!latest_.empty()) {
        auto v = [&](SparkCounter c) { return runtime::value_of(t, c); };
        // The RTS's total counts every spark made: pooled (created), dud and overflowed.
        std::uint64_t sparked = v(SparkCounter::created) + v(SparkCounter::dud) + v(SparkCounter::overflowed);
        std::string line = "SPARKS: " + std::to_string(sparked) + " (" + std::to_string(v(SparkCounter::converted)) +
                           " converted, " + std::to_string(v(SparkCounter::overflowed)) + " overflowed, " +
                           std::to_string(v(SparkCounter::dud)) + " dud, " + std::to_string(v(SparkCounter::gcd)) +
                           " GC'd, " + std::to_string(v(SparkCounter::fizzled)) + " fizzled)";
        p.add_extra_entry(s, "Totals (as +RTS -s)", ExtraValue::text(line));
        for (SparkCounter c : runtime::kSparkCounters) {
            std::string label = c == SparkCounter::pool      ? "Left in pools at the end"
                                : c == SparkCounter::created ? "Created (put into a pool)"
                                                             : capitalised(runtime::spark_counter_label(c));
            p.add_extra_entry(s, label, ExtraValue::integer(static_cast<std::int64_t>(v(c))));
        }
    }
    if (any_events) {
        for (std::size_t k = 0; k < runtime::kSparkEventKindCount; ++k) {
            auto kind = static_cast<SparkEventKind>(k);
            p.add_extra_entry(s, std::string(runtime::spark_event_name(kind)) + " events",
                              ExtraValue::integer(static_cast<std::int64_t>(bursts_.events(kind))));
        }
        p.add_extra_entry(s, "Spark event markers",
                          ExtraValue::integer(static_cast<std::int64_t>(bursts_.bursts().size())));
    }
}

}  // namespace el2fx::convert

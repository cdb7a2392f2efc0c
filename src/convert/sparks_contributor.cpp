#include "convert/sparks_contributor.hpp"

#include <array>
#include <limits>

#include "convert/run_census.hpp"

namespace el2fx::convert {
namespace {

using namespace el2fx::fxprof;
using eventlog::CapNo;
using events::SparkCounter;
using events::SparkEventKind;

constexpr std::array<std::uint16_t, 11> kShown = {
    eventlog::RunSpark::tag,    eventlog::StealSpark::tag,    eventlog::CreateSparkThread::tag,
    eventlog::SparkCounters::tag, eventlog::SparkCreate::tag, eventlog::SparkDud::tag,
    eventlog::SparkOverflow::tag, eventlog::SparkRun::tag,    eventlog::SparkSteal::tag,
    eventlog::SparkFizzle::tag, eventlog::SparkGC::tag};

GraphColor color_of(SparkCounter c) {
    switch (c) {
        case SparkCounter::created: return GraphColor::blue;
        case SparkCounter::converted: return GraphColor::green;
        case SparkCounter::overflowed: return GraphColor::orange;
        case SparkCounter::dud: return GraphColor::grey;
        case SparkCounter::gcd: return GraphColor::purple;
        case SparkCounter::fizzled: return GraphColor::red;
        case SparkCounter::pool: return GraphColor::teal;
    }
    return GraphColor::blue;
}

std::string_view description_of(SparkCounter c) {
    switch (c) {
        case SparkCounter::created: return "Sparks created and put into the pool, since the start (SPARK_COUNTERS).";
        case SparkCounter::converted: return "Sparks converted: taken from a pool and run, since the start.";
        case SparkCounter::overflowed: return "Sparks dropped because the pool was full, since the start.";
        case SparkCounter::dud: return "Dud sparks: already evaluated when sparked, never pooled, since the start.";
        case SparkCounter::gcd: return "Sparks removed from a pool by GC because nothing needed them, since the start.";
        case SparkCounter::fizzled: return "Fizzled sparks: evaluated by someone else before they ran, since the start.";
        case SparkCounter::pool: return "Sparks waiting in the capability's pool (SPARK_COUNTERS, at start-up, GCs and shutdown).";
    }
    return "";
}

std::string capitalised(std::string_view s) {
    std::string out(s);
    if (!out.empty() && out[0] >= 'a' && out[0] <= 'z') out[0] = static_cast<char>(out[0] - 'a' + 'A');
    return out;
}

// "Sparks created" / "Spark pool size".
std::string series_name(SparkCounter c) {
    if (c == SparkCounter::pool) return "Spark pool size";
    return "Sparks " + std::string(events::spark_counter_label(c));
}

CounterDisplay display_for(SparkCounter c, const std::string& label, int sort_weight) {
    CounterDisplay d;
    d.graph_type = CounterGraphType::line_accumulated;
    d.unit = "sparks";
    d.color = color_of(c);
    d.marker_schema_location = std::nullopt;
    d.sort_weight = sort_weight;
    d.label = label;
    std::string value = c == SparkCounter::pool ? "Sparks in the pool" : capitalised(events::spark_counter_label(c)) + " so far";
    d.tooltip_rows = {
        CounterTooltipRow::value(CounterTooltipSource::accumulated, CounterTooltipUnit::number, value),
        CounterTooltipRow::value(CounterTooltipSource::count, CounterTooltipUnit::number, "Change since the previous sample"),
    };
    return d;
}

std::uint32_t clamp32(std::uint64_t v) {
    return v > std::numeric_limits<std::uint32_t>::max() ? std::numeric_limits<std::uint32_t>::max()
                                                         : static_cast<std::uint32_t>(v);
}

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
            add_counter_sample(*event.cap, event.time, events::spark_counts(*p));
        return;
    }
    if (auto kind = events::spark_event_kind(event.tag)) {
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
        default:
            break;
    }
}

void SparksContributor::contribute(ProfileContext& ctx, std::uint64_t /*end*/) {
    bursts_.finish();
    flush_summed();
    add_markers(ctx);
    add_summary(ctx);
}

void SparksContributor::begin(ProfileContext& ctx) {
    context_ = &ctx;
    if (!ctx.census || ctx.census->spark_series.empty()) return;
    const auto& caps = ctx.census->spark_series;
    Profile& p = ctx.profile;
    int weight = 40;
    auto add_series = [&](SparkCounter c, const std::string& label, const std::string& scope) {
        std::string description = std::string(description_of(c)) + " " + scope;
        return Series{c, p.add_counter(ctx.process, label, "Sparks", description, display_for(c, label, weight++)), 0};
    };
    summing_ = caps.size() > kMaxCapabilitiesWithOwnSparkTracks;
    for (SparkCounter c : events::kSparkCounters) {
        if (!summing_) break;
        bool any = false;  // counts are never negative: the sum is zero only where every capability's is
        for (const auto& [cap, nonzero] : caps) any = any || nonzero[static_cast<std::size_t>(c)];
        if (any)
            summed_.push_back(add_series(c, series_name(c) + " (all caps)",
                                         "All " + std::to_string(caps.size()) + " capabilities together."));
    }
    if (summing_) return;
    for (const auto& [cap, nonzero] : caps)
        for (SparkCounter c : events::kSparkCounters)
            if (nonzero[static_cast<std::size_t>(c)])
                per_cap_[cap].push_back(add_series(c, series_name(c) + " (cap " + std::to_string(cap) + ")",
                                                   "Capability " + std::to_string(cap) + "."));
}

void SparksContributor::add_sample(Series& series, std::uint64_t time, const events::SparkCounts& counts) {
    std::uint64_t v = events::value_of(counts, series.counter);
    std::uint64_t change = v >= series.previous ? v - series.previous : series.previous - v;
    context_->profile.add_counter_value(series.handle, ProfileContext::at(time), static_cast<double>(v), clamp32(change));
    series.previous = v;
}

void SparksContributor::add_counter_sample(CapNo cap, std::uint64_t time, const events::SparkCounts& counts) {
    events::SparkCounts& last = latest_[cap];  // zero before a capability's first sample
    for (std::size_t k = 0; k < events::kSparkCounterCount; ++k) sum_[k] = sum_[k] - last[k] + counts[k];
    last = counts;
    if (!context_) return;
    if (!summing_) {
        for (Series& series : per_cap_[cap]) add_sample(series, time, counts);
        return;
    }
    // Several capabilities' samples at one time make one sample of the sum.
    if (pending_sum_ && pending_sum_->time != time) flush_summed();
    pending_sum_ = events::SparkCounterSample{time, sum_};
}

void SparksContributor::flush_summed() {
    if (!pending_sum_) return;
    for (Series& series : summed_) add_sample(series, pending_sum_->time, pending_sum_->counts);
    pending_sum_.reset();
}

void SparksContributor::add_markers(ProfileContext& ctx) {
    if (bursts_.bursts().empty() && spark_threads_.empty()) return;
    Profile& p = ctx.profile;
    using DL = DisplayLocation;
    std::optional<MarkerSchemaHandle> sparks, steals, thread_created;
    std::array<std::optional<StringHandle>, events::kSparkEventKindCount> names;
    for (const events::SparkBurst& b : bursts_.bursts()) {
        ThreadHandle track = ctx.capability_track(b.cap).value_or(ctx.process_track);
        auto& name = names[static_cast<std::size_t>(b.kind)];
        if (!name) name = p.handle_for_string(events::spark_event_name(b.kind));
        MarkerTiming timing = b.count == 1 ? MarkerTiming::instant(ProfileContext::at(b.start))
                                           : MarkerTiming::interval(ProfileContext::at(b.start), ProfileContext::at(b.end));
        CategoryHandle category = is_work(b.kind) ? ctx.categories.running : ctx.categories.other;
        if (b.victim) {
            if (!steals)
                steals = p.register_marker_schema(
                    {.name = "SparkSteal",
                     .display = {DL::marker_chart, DL::marker_table},
                     .fields = {{"count", "Sparks", FieldFormat::integer},
                                {"victim", "Stolen from capability", FieldFormat::integer},
                                {"cap", "Capability", FieldFormat::integer}},
                     .tooltip_label = "{marker.name}: {marker.data.count} from capability {marker.data.victim}",
                     .table_label = "{marker.data.count} from capability {marker.data.victim}",
                     .chart_label = "{marker.data.count} from cap {marker.data.victim}",
                     .description = "Sparks this capability stole from another one's pool (SPARK_STEAL); "
                                    "events close together are one marker."});
            p.add_marker(track, timing, *name, category, *steals,
                         {FieldValue(b.count), FieldValue(*b.victim), FieldValue(b.cap)});
        } else {
            if (!sparks)
                sparks = p.register_marker_schema(
                    {.name = "SparkEvents",
                     .display = {DL::marker_chart, DL::marker_table},
                     .fields = {{"count", "Sparks", FieldFormat::integer},
                                {"cap", "Capability", FieldFormat::integer}},
                     .tooltip_label = "{marker.name}: {marker.data.count}",
                     .table_label = "{marker.data.count}",
                     .chart_label = "{marker.data.count}",
                     .description = "Spark events of one kind on this capability (+RTS -lf); "
                                    "events close together are one marker with their count."});
            p.add_marker(track, timing, *name, category, *sparks, {FieldValue(b.count), FieldValue(b.cap)});
        }
    }
    if (spark_threads_.empty()) return;
    thread_created = p.register_marker_schema({.name = "SparkThreadCreated",
                                               .display = {DL::marker_chart, DL::marker_table},
                                               .fields = {{"thread", "Spark thread", FieldFormat::integer},
                                                          {"cap", "Capability", FieldFormat::integer}},
                                               .tooltip_label = "Spark thread {marker.data.thread} created",
                                               .table_label = "thread {marker.data.thread}",
                                               .description = "The capability started a Haskell thread to run sparks "
                                                              "(CREATE_SPARK_THREAD)."});
    StringHandle name = p.handle_for_string("Spark thread created");
    for (const SparkThread& s : spark_threads_) {
        ThreadHandle track = ctx.capability_track(s.cap).value_or(ctx.process_track);
        p.add_marker(track, MarkerTiming::instant(ProfileContext::at(s.time)), name, ctx.categories.other,
                     *thread_created, {FieldValue(s.thread), FieldValue(s.cap)});
    }
}

void SparksContributor::add_summary(ProfileContext& ctx) {
    bool any_events = false;
    for (std::size_t k = 0; k < events::kSparkEventKindCount; ++k)
        any_events = any_events || bursts_.events(static_cast<SparkEventKind>(k)) > 0;
    events::SparkCounts t{};  // each capability's last counts, added up (as +RTS -s)
    for (const auto& [cap, counts] : latest_)
        for (std::size_t k = 0; k < events::kSparkCounterCount; ++k) t[k] += counts[k];
    bool any_counts = false;
    for (std::uint64_t n : t) any_counts = any_counts || n > 0;
    if (!any_counts && !any_events) return;  // a program without sparks: nothing to say
    Profile& p = ctx.profile;
    ExtraSectionHandle s = p.add_extra_section(ctx.section_label("Sparks"));
    if (!latest_.empty()) {
        auto v = [&](SparkCounter c) { return events::value_of(t, c); };
        // The RTS's total counts every spark made: pooled (created), dud and overflowed.
        std::uint64_t sparked = v(SparkCounter::created) + v(SparkCounter::dud) + v(SparkCounter::overflowed);
        std::string line = "SPARKS: " + std::to_string(sparked) + " (" +
                           std::to_string(v(SparkCounter::converted)) + " converted, " +
                           std::to_string(v(SparkCounter::overflowed)) + " overflowed, " +
                           std::to_string(v(SparkCounter::dud)) + " dud, " + std::to_string(v(SparkCounter::gcd)) +
                           " GC'd, " + std::to_string(v(SparkCounter::fizzled)) + " fizzled)";
        p.add_extra_entry(s, "Totals (as +RTS -s)", ExtraValue::text(line));
        for (SparkCounter c : events::kSparkCounters) {
            std::string label = c == SparkCounter::pool      ? "Left in pools at the end"
                                : c == SparkCounter::created ? "Created (put into a pool)"
                                                             : capitalised(events::spark_counter_label(c));
            p.add_extra_entry(s, label, ExtraValue::integer(static_cast<std::int64_t>(v(c))));
        }
    }
    if (any_events) {
        for (std::size_t k = 0; k < events::kSparkEventKindCount; ++k) {
            auto kind = static_cast<SparkEventKind>(k);
            p.add_extra_entry(s, std::string(events::spark_event_name(kind)) + " events",
                              ExtraValue::integer(static_cast<std::int64_t>(bursts_.events(kind))));
        }
        p.add_extra_entry(s, "Spark event markers", ExtraValue::integer(static_cast<std::int64_t>(bursts_.bursts().size())));
    }
}

}  // namespace el2fx::convert

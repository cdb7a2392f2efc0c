#include "convert/cost_centre_contributor.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <optional>
#include <unordered_map>
#include <vector>

#include "analysis/ghc_profiling/tick_cpu.hpp"
#include "convert/source_locations.hpp"

namespace el2fx::convert {
namespace {

using namespace el2fx::fxprof;
using profiling::CostCentreKind;

constexpr std::array<std::uint16_t, 3> kShownTags = {eventlog::HeapProfCostCentre::tag,
                                                     eventlog::ProfSampleCostCentre::tag, eventlog::ProfBegin::tag};

// The samples one track gets from ticks, in time order.
struct TrackTicks {
    std::vector<std::uint64_t> times;
    std::vector<StackHandle> stacks;
};

class TickMapper {
public:
    TickMapper(ProfileContext& context, const profiling::CostCentreTable& cost_centres,
               const profiling::TimeProfile& time_profile, const profiling::TickCoverage& coverage)
        : ctx_(context), p_(context.profile), table_(cost_centres), ticks_(time_profile), coverage_(coverage) {}

    void run() {
        const double ratio = static_cast<double>(ticks_.tick_interval()) /
                             static_cast<double>(std::max<std::uint64_t>(ctx_.options.sampling_interval_ns, 1));
        weight_ = std::max<std::int64_t>(1, std::llround(ratio));
        idle_stack_ = p_.handle_for_stack(std::nullopt, plain_frame("Idle", ctx_.categories.idle));
        gc_stack_ = p_.handle_for_stack(std::nullopt, plain_frame("GC", ctx_.categories.gc));

        std::map<eventlog::CapNo, TrackTicks> caps;
        std::map<eventlog::ThreadId, TrackTicks> threads;
        for (const profiling::Tick& tick : ticks_.ticks()) {
            std::span<const std::uint32_t> ids = ticks_.stack(tick.stack);
            CostCentreKind kind = ids.empty() ? CostCentreKind::program : table_.kind(ids.back());
            ++counts_[static_cast<std::size_t>(kind)];
            if (!ctx_.capability_track(tick.cap)) {
                ++without_track_;
                continue;
            }
            TrackTicks& cap = caps[tick.cap];
            cap.times.push_back(tick.time);
            if (kind == CostCentreKind::idle) {
                cap.stacks.push_back(idle_stack_);
                continue;
            }
            if (kind == CostCentreKind::gc) {
                cap.stacks.push_back(gc_stack_);
                continue;
            }
            if ((kind == CostCentreKind::program || kind == CostCentreKind::caf) && !ids.empty()) ++self_[ids.back()];
            std::optional<eventlog::ThreadId> thread = ctx_.running_thread(tick.cap, tick.time);
            std::optional<StackHandle> prefix;
            if (thread) prefix = mutator_prefix(*thread);
            cap.stacks.push_back(extend(prefix, tick.stack));
            if (!thread) continue;
            ++with_thread_;
            std::optional<ThreadHandle> track = ctx_.thread_track(*thread);
            if (!track) continue;
            if (ctx_.thread_is_folded(*thread)) {
                // The shared track: weights and stacks, no CPU deltas (as the mapper does there).
                p_.add_sample(*track, ProfileContext::at(tick.time), extend(folded_root(*thread), tick.stack),
                              std::nullopt, weight_);
                continue;
            }
            TrackTicks& t = threads[*thread];
            t.times.push_back(tick.time);
            t.stacks.push_back(extend(std::nullopt, tick.stack));
        }
        for (const auto& [cap, track_ticks] : caps) add_capability_samples(cap, track_ticks);
        // Every thread with a track of its own: one whose virtual samples were replaced gets their
        // CPU time back even if no tick found it running.
        static const TrackTicks kNoTicks;
        for (const analysis::ThreadTimeline& t : ctx_.threading.threads) {
            if (!ctx_.thread_track(t.thread) || ctx_.thread_is_folded(t.thread)) continue;
            auto it = threads.find(t.thread);
            add_thread_samples(t.thread, &t, it == threads.end() ? kNoTicks : it->second);
            if (it != threads.end()) threads.erase(it);
        }
        for (const auto& [thread, track_ticks] : threads) add_thread_samples(thread, nullptr, track_ticks);
        add_summary();
    }

private:
    FrameHandle plain_frame(std::string_view name, CategoryHandle category) {
        FuncInfo f{.name = p_.handle_for_string(name)};
        FrameInfo fr{.func = p_.handle_for_func(f), .category = SubcategoryHandle(category)};
        return p_.handle_for_frame(fr);
    }

    CategoryHandle category_of(CostCentreKind kind) const {
        switch (kind) {
            case CostCentreKind::idle: return ctx_.categories.idle;
            case CostCentreKind::gc: return ctx_.categories.gc;
            case CostCentreKind::runtime: return ctx_.categories.other;
            case CostCentreKind::program:
            case CostCentreKind::caf: break;
        }
        return ctx_.categories.running;
    }

    FrameHandle cost_centre_frame(std::uint32_t id) {
        auto it = frames_.find(id);
        if (it != frames_.end()) return it->second;
        const profiling::CostCentre* cc = table_.find(id);
        // Interned one statement at a time: string indexes must not depend on evaluation order.
        FuncInfo f{.name = p_.handle_for_string(table_.name(id))};
        std::optional<std::uint32_t> line;
        if (cc) {
            if (!cc->module.empty()) {
                StringHandle module = p_.handle_for_string(cc->module);
                f.resource = p_.handle_for_resource(module, ResourceType::library);
            }
            if (!cc->location.file.empty()) {
                StringHandle file = p_.handle_for_string(cc->location.file);
                f.source = p_.handle_for_source(file);
                f.line = cc->location.line;
                f.column = cc->location.column;
                if (f.line && *f.line > 0) line = f.line;  // lines are 1-based: 0 is no line
            }
        }
        FrameInfo fr{.func = p_.handle_for_func(f), .category = SubcategoryHandle(category_of(table_.kind(id)))};
        if (f.source) {
            // The profiler's source view counts a sample on the line of its frame: the cost
            // centre's first line (a cost centre is one span; ticks say no more). The pseudo-library
            // and the source's index as address let the profiler ask `serve --sources` for the
            // text of a file the profile does not embed (source_locations.hpp).
            fr.line = line;
            fr.lib = p_.handle_for_lib(source_locations_lib());
            fr.address = f.source->index();
        }
        FrameHandle frame = p_.handle_for_frame(fr);
        frames_.emplace(id, frame);
        return frame;
    }

    // The cost-centre stack `stack` (a TimeProfile stack id) called from `prefix`.
    StackHandle extend(std::optional<StackHandle> prefix, std::uint32_t stack) {
        std::uint64_t key = (std::uint64_t{prefix ? prefix->index() + 1 : 0} << 32) | stack;
        auto it = stacks_.find(key);
        if (it != stacks_.end()) return it->second;
        std::span<const std::uint32_t> ids = ticks_.stack(stack);
        std::optional<StackHandle> s = prefix;
        if (ids.empty()) {
            s = p_.handle_for_stack(s, main_frame());
        } else {
            for (std::uint32_t id : ids) s = p_.handle_for_stack(s, cost_centre_frame(id));
        }
        stacks_.emplace(key, *s);
        return *s;
    }

    // An empty stack: the runtime charges MAIN, which stacks on the wire leave out.
    FrameHandle main_frame() {
        if (!main_frame_) {
            FuncInfo f{.name = p_.handle_for_string("MAIN")};
            StringHandle module = p_.handle_for_string("MAIN");
            f.resource = p_.handle_for_resource(module, ResourceType::library);
            main_frame_ = p_.handle_for_frame(
                FrameInfo{.func = p_.handle_for_func(f), .category = SubcategoryHandle(ctx_.categories.running)});
        }
        return *main_frame_;
    }

    // The capability track's frames for a thread's mutator span, as the threading mapper makes them.
    StackHandle mutator_prefix(eventlog::ThreadId thread) {
        auto it = mutator_.find(thread);
        if (it != mutator_.end()) return it->second;
        StackHandle root = p_.handle_for_stack(std::nullopt, plain_frame("Mutator", ctx_.categories.running));
        StackHandle s = p_.handle_for_stack(root, plain_frame(ctx_.thread_name(thread), ctx_.categories.running));
        mutator_.emplace(thread, s);
        return s;
    }

    // A thread's root on the shared track, as the threading mapper makes it.
    StackHandle folded_root(eventlog::ThreadId thread) {
        auto it = folded_.find(thread);
        if (it != folded_.end()) return it->second;
        StackHandle s = p_.handle_for_stack(std::nullopt, plain_frame(ctx_.thread_name(thread), ctx_.categories.other));
        folded_.emplace(thread, s);
        return s;
    }

    template <typename Sample, typename Replaced>
    void add_samples(ThreadHandle track, const TrackTicks& ticks, const std::vector<profiling::TimeInterval>& on_cpu,
                     const std::vector<Sample>& virtual_samples, Replaced replaced) {
        std::vector<profiling::VirtualSampleRef> refs;
        refs.reserve(virtual_samples.size());
        for (const Sample& s : virtual_samples) refs.push_back({s.time, s.cpu_delta_ns, replaced(s)});
        profiling::TickCpu cpu = profiling::distribute_replaced_cpu(on_cpu, refs, ticks.times);
        if (ticks.times.empty() && cpu.carriers.empty()) return;
        for (std::size_t i = 0; i < ticks.times.size(); ++i)
            p_.add_sample(track, ProfileContext::at(ticks.times[i]), ticks.stacks[i],
                          CpuDelta::from_nanos(static_cast<std::int64_t>(cpu.per_tick[i])), weight_);
        // CPU time no tick took: weight 0, on the stack of the tick before it (if any).
        for (const profiling::CpuCarrier& c : cpu.carriers) {
            auto after = std::upper_bound(ticks.times.begin(), ticks.times.end(), c.time);
            std::optional<StackHandle> stack;
            if (after != ticks.times.begin())
                stack = ticks.stacks[static_cast<std::size_t>(after - ticks.times.begin()) - 1];
            p_.add_sample(track, ProfileContext::at(c.time), stack,
                          CpuDelta::from_nanos(static_cast<std::int64_t>(c.cpu)), 0);
        }
    }

    void add_capability_samples(eventlog::CapNo cap, const TrackTicks& ticks) {
        ThreadHandle track = *ctx_.capability_track(cap);
        static const std::vector<analysis::Sample<analysis::CapabilityActivity>> kNone;
        std::vector<profiling::TimeInterval> on_cpu;
        const std::vector<analysis::Sample<analysis::CapabilityActivity>>* samples = &kNone;
        for (const analysis::CapabilityTimeline& c : ctx_.threading.capabilities) {
            if (c.cap != cap) continue;
            for (const analysis::CapabilitySpan& s : c.spans)
                if (is_on_cpu(s.activity)) on_cpu.push_back({s.start, s.end});
            samples = &c.samples;
        }
        if (on_cpu.empty()) {
            // No scheduler events (e.g. `+RTS -p -l-au`): nothing to account CPU time by, so
            // each tick in Haskell code or GC stands for one tick interval of CPU time.
            auto interval = static_cast<std::int64_t>(ticks_.tick_interval());
            for (std::size_t i = 0; i < ticks.times.size(); ++i)
                p_.add_sample(track, ProfileContext::at(ticks.times[i]), ticks.stacks[i],
                              CpuDelta::from_nanos(ticks.stacks[i] == idle_stack_ ? 0 : interval), weight_);
            return;
        }
        add_samples(track, ticks, on_cpu, *samples,
                    [&](const auto& s) { return coverage_.replaces_capability_sample(cap, s.time); });
    }

    void add_thread_samples(eventlog::ThreadId thread, const analysis::ThreadTimeline* timeline,
                            const TrackTicks& ticks) {
        ThreadHandle track = *ctx_.thread_track(thread);
        static const std::vector<analysis::Sample<analysis::ThreadActivity>> kNone;
        std::vector<profiling::TimeInterval> on_cpu;
        const std::vector<analysis::Sample<analysis::ThreadActivity>>* samples = &kNone;
        if (timeline) {
            for (const analysis::ThreadStateSpan& s : timeline->spans)
                if (is_on_cpu(s.activity)) on_cpu.push_back({s.start, s.end});
            samples = &timeline->samples;
        }
        add_samples(track, ticks, on_cpu, *samples, [&](const auto& s) {
            return coverage_.replaces_thread_sample(is_on_cpu(s.key), s.key.cap, s.time);
        });
    }

    void add_summary() {
        ExtraSectionHandle s = p_.add_extra_section(ctx_.section_label("Time profile (cost centres)"));
        auto count = [&](CostCentreKind k) { return static_cast<std::int64_t>(counts_[static_cast<std::size_t>(k)]); };
        p_.add_extra_entry(
            s, "Tick interval",
            ExtraValue::duration(Duration::from_nanos(static_cast<std::int64_t>(ticks_.tick_interval()))));
        p_.add_extra_entry(s, "Ticks", ExtraValue::integer(static_cast<std::int64_t>(ticks_.ticks().size())));
        std::int64_t program = count(CostCentreKind::program) + count(CostCentreKind::caf);
        p_.add_extra_entry(s, "In the program's cost centres", ExtraValue::integer(program));
        p_.add_extra_entry(s, "Idle (IDLE)", ExtraValue::integer(count(CostCentreKind::idle)));
        p_.add_extra_entry(s, "Garbage collection (GC)", ExtraValue::integer(count(CostCentreKind::gc)));
        p_.add_extra_entry(s, "In the runtime (SYSTEM, OVERHEAD_of, ...)",
                           ExtraValue::integer(count(CostCentreKind::runtime)));
        p_.add_extra_entry(s, "Charged to a known Haskell thread",
                           ExtraValue::integer(static_cast<std::int64_t>(with_thread_)));
        if (without_track_)
            p_.add_extra_entry(s, "On a capability without a track (not shown)",
                               ExtraValue::integer(static_cast<std::int64_t>(without_track_)));
        // The `.prof` report's summary: cost centres by individual time, of the program's ticks.
        std::vector<std::pair<std::uint32_t, std::uint64_t>> top(self_.begin(), self_.end());
        std::sort(top.begin(), top.end(), [](const auto& a, const auto& b) {
            return a.second != b.second ? a.second > b.second : a.first < b.first;
        });
        for (std::size_t i = 0; i < top.size() && i < 10 && program > 0; ++i) {
            const profiling::CostCentre* cc = table_.find(top[i].first);
            std::string label = std::to_string(i + 1) + ". " + table_.name(top[i].first);
            if (cc) label += " (" + cc->module + ")";
            p_.add_extra_entry(
                s, label, ExtraValue::percentage(static_cast<double>(top[i].second) / static_cast<double>(program)));
        }
    }

    ProfileContext& ctx_;
    Profile& p_;
    const profiling::CostCentreTable& table_;
    const profiling::TimeProfile& ticks_;
    const profiling::TickCoverage& coverage_;
    std::int64_t weight_ = 1;
    StackHandle idle_stack_{0}, gc_stack_{0};
    std::optional<FrameHandle> main_frame_;
    std::unordered_map<std::uint32_t, FrameHandle> frames_;
    std::unordered_map<std::uint64_t, StackHandle> stacks_;
    std::unordered_map<eventlog::ThreadId, StackHandle> mutator_, folded_;
    std::array<std::uint64_t, 5> counts_{};
    std::unordered_map<std::uint32_t, std::uint64_t> self_;
    std::uint64_t with_thread_ = 0, without_track_ = 0;
};

}  // namespace

CostCentreContributor::CostCentreContributor(const ConvertOptions& /*options*/) {}

void CostCentreContributor::handle(const eventlog::Event& event) {
    cost_centres_.handle(event);
    time_profile_.handle(event);
}

pass::Interests CostCentreContributor::interests() const {
    pass::Interests i = profiling::TimeProfile::interests();
    i |= profiling::CostCentreTable::interests();
    return i;
}

void CostCentreContributor::contribute(ProfileContext& context, std::uint64_t /*end*/) {
    if (time_profile_.empty()) return;
    static const profiling::TickCoverage kNone;
    TickMapper(context, cost_centres_, time_profile_, context.tick_coverage ? *context.tick_coverage : kNone).run();
}

std::span<const std::uint16_t> CostCentreContributor::shown_tags() const { return kShownTags; }

}  // namespace el2fx::convert

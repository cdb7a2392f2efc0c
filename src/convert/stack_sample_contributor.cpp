#include "convert/stack_sample_contributor.hpp"

#include <algorithm>
#include <array>
#include <string>

#include "analysis/ghc_profiling/source_location.hpp"
#include "convert/source_locations.hpp"

namespace el2fx::convert {
namespace {

using namespace el2fx::fxprof;
using stack_profiler::Entry;
using stack_profiler::EntryKind;

constexpr std::array<std::uint16_t, 2> kShownTags = {eventlog::UserBinaryMessage::tag, eventlog::InfoProv::tag};
// The label ghc-stack-profiler gives its sampling thread (the writer thread has none).
constexpr std::string_view kSamplerLabel = "Sample Profiler Thread";
constexpr std::size_t kMaxGaps = 1 << 16;
// Rings of threads that stopped being sampled are dropped every so many samples.
constexpr std::uint64_t kSweepEvery = 4096;

std::string hex(std::uint64_t v) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out = "0x";
    int shift = 60;
    while (shift > 0 && ((v >> shift) & 0xF) == 0) shift -= 4;
    for (; shift >= 0; shift -= 4) out += kDigits[(v >> shift) & 0xF];
    return out;
}

}  // namespace

void StackSampleContributor::begin(ProfileContext& context) {
    ctx_ = &context;
    context.sampled_stacks = this;
}

pass::Interests StackSampleContributor::interests() const {
    return pass::Interests::where([](std::uint16_t tag) {
        return tag == eventlog::UserBinaryMessage::tag || tag == eventlog::InfoProv::tag ||
               tag == eventlog::ThreadLabel::tag;
    });
}

std::span<const std::uint16_t> StackSampleContributor::shown_tags() const { return kShownTags; }

void StackSampleContributor::handle(const eventlog::Event& event) {
    switch (event.tag) {
        case eventlog::InfoProv::tag:
            if (const auto* e = event.as<eventlog::InfoProv>()) ipe_.add(*e);
            break;
        case eventlog::ThreadLabel::tag:
            if (const auto* e = event.as<eventlog::ThreadLabel>())
                if (e->label.bytes.starts_with(kSamplerLabel)) samplers_.insert(e->thread);
            break;
        case eventlog::UserBinaryMessage::tag: {
            const auto* e = event.as<eventlog::UserBinaryMessage>();
            if (!e) break;
            const std::uint64_t before = assembler_.counts().messages;
            const stack_profiler::AssembledSample* s = assembler_.message(event.time, e->payload.bytes);
            if (assembler_.counts().messages == before) break;  // not one of the profiler's
            ++profiler_messages_seen_;
            order_.prove(assembler_.layout());
            // The thread running where the message was written is the profiler's writer.
            if (event.cap && ctx_ && ctx_->running_threads)
                if (std::optional<eventlog::ThreadId> writer = ctx_->running_threads->on(*event.cap))
                    writers_.insert(*writer);
            if (s) sample(*s);
            break;
        }
        default: break;
    }
}

void StackSampleContributor::sample(const stack_profiler::AssembledSample& s) {
    order_.sample(s.thread, s.entries);
    ++per_thread_[s.thread];
    auto [last, first] = last_time_.try_emplace(s.thread, s.time);
    if (!first) {
        if (gaps_.size() < kMaxGaps && s.time > last->second) gaps_.push_back(s.time - last->second);
        last->second = s.time;
    }
    if (!ctx_) return;
    if (!ctx_->thread_track(s.thread) || ctx_->thread_is_folded(s.thread)) {
        ++counts_.without_track;
        return;
    }
    Ring& ring = rings_[s.thread];
    evict(ring, s.time > kStackHistory ? s.time - kStackHistory : 0);
    Stored& stored = ring.emplace_back();
    stored.time = s.time;
    if (!spare_.empty()) {
        stored.frames = std::move(spare_.back());
        spare_.pop_back();
        stored.frames.clear();
    }
    stored.frames.reserve(s.entries.size());
    for (const Entry& e : s.entries) stored.frames.push_back(frame_for(e));

    if (++samples_since_sweep_ >= kSweepEvery) {
        samples_since_sweep_ = 0;
        const std::uint64_t before = s.time > kStackHistory ? s.time - kStackHistory : 0;
        for (auto it = rings_.begin(); it != rings_.end();) {
            if (!it->second.empty() && it->second.back().time < before) {
                evict(it->second, s.time);
                it = rings_.erase(it);
            } else {
                ++it;
            }
        }
    }
}

void StackSampleContributor::evict(Ring& ring, std::uint64_t before) {
    while (!ring.empty() && ring.front().time < before) {
        Stored& old = ring.front();
        ++(old.used ? counts_.shown : counts_.not_shown);
        spare_.push_back(std::move(old.frames));
        ring.pop_front();
    }
}

FrameHandle StackSampleContributor::located_frame(std::string_view name, std::string_view module,
                                                  std::string_view file, std::optional<std::uint32_t> line,
                                                  std::optional<std::uint32_t> column) {
    Profile& p = ctx_->profile;
    // Interned one statement at a time: string indexes must not depend on evaluation order.
    FuncInfo f{.name = p.handle_for_string(name)};
    if (!module.empty()) {
        StringHandle m = p.handle_for_string(module);
        f.resource = p.handle_for_resource(m, ResourceType::library);
    }
    // No category: the frame takes its state's (running, blocked …), so the activity graph
    // keeps showing what the thread was doing.
    FrameInfo fr{.func = FuncHandle(0)};
    if (!file.empty()) {
        StringHandle source = p.handle_for_string(file);
        f.source = p.handle_for_source(source);
        f.line = line;
        f.column = column;
        // As cost-centre frames: the pseudo-library and the source's index let the profiler ask
        // `serve --sources` for the file (source_locations.hpp); lines are 1-based.
        if (line && *line > 0) fr.line = line;
        fr.lib = p.handle_for_lib(source_locations_lib());
        fr.address = f.source->index();
    }
    fr.func = p.handle_for_func(f);
    return p.handle_for_frame(fr);
}

FrameHandle StackSampleContributor::ipe_frame(std::uint64_t address) {
    auto it = ipe_frames_.find(address);
    if (it != ipe_frames_.end()) return it->second;
    FrameHandle frame{0};
    if (const profiling::InfoTable* t = ipe_.find(address)) {
        const bool located = profiling::has_source_location(*t);
        profiling::SourceLocation loc;
        if (located) loc = profiling::parse_source_location(t->src_loc);
        // As a Haskell developer reads it: Module.binding; the source span for a closure without
        // a label; the table's own name (block_cyO7_info) for one without either.
        std::string name;
        if (!t->label.empty()) {
            name = t->module.empty() ? t->label : t->module + "." + t->label;
        } else if (located) {
            name = t->src_loc;
        } else {
            name = t->table_name.empty() ? hex(address) : t->table_name;
        }
        frame = located_frame(name, t->module, loc.file, loc.line, loc.column);
    } else {
        // Not in the IPE events: a library built without -finfo-table-map, or (ghc-internal
        // >= 9.1500) an IPE id rather than an address.
        frame = located_frame(hex(address) + " (no IPE entry)", {}, {}, std::nullopt, std::nullopt);
        if (missing_addresses_.insert(address).second) ++counts_.addresses_without_ipe;
    }
    ipe_frames_.emplace(address, frame);
    return frame;
}

FrameHandle StackSampleContributor::annotation_frame(const Entry& e) {
    // Not cached: a string or location defined after its first use gets its name when it comes.
    const std::uint64_t string_id = e.kind == EntryKind::location ? 0 : e.value;
    std::string name;
    std::string_view file;
    std::optional<std::uint32_t> line, column;
    std::string file_text;
    auto string_or = [&](std::uint64_t id, std::string_view what) -> std::string {
        if (const std::string* s = assembler_.string(id)) return *s;
        ++counts_.undefined_strings;
        return std::string(what) + " #" + std::to_string(id) + " (undefined)";
    };
    if (e.kind == EntryKind::annotation || e.kind == EntryKind::located) name = string_or(string_id, "annotation");
    if (e.kind == EntryKind::located || e.kind == EntryKind::location) {
        const std::uint64_t loc_id = e.kind == EntryKind::located ? e.location : e.value;
        if (const stack_profiler::SourceLocationDef* loc = assembler_.location(loc_id)) {
            file_text = string_or(loc->file, "file");
            if (assembler_.string(loc->file)) file = file_text;
            line = loc->line;
            column = loc->column;
            if (e.kind == EntryKind::location)
                name = loc->has_function ? string_or(loc->function, "function") : file_text;
        } else {
            ++counts_.undefined_locations;
            if (e.kind == EntryKind::location) name = "source location #" + std::to_string(loc_id) + " (undefined)";
        }
    }
    return located_frame(name, {}, file, line, column);
}

FrameHandle StackSampleContributor::frame_for(const Entry& e) {
    if (e.kind != EntryKind::ipe) return annotation_frame(e);
    FrameHandle f = ipe_frame(e.value);
    if (!ipe_.find(e.value)) ++counts_.frames_without_ipe;
    return f;
}

StackHandle StackSampleContributor::profiler_stack(StackHandle state, bool writer) {
    std::optional<FrameHandle>& frame = writer ? writer_frame_ : sampler_frame_;
    if (!frame)
        frame = located_frame(writer ? "ghc-stack-profiler: writing samples" : "ghc-stack-profiler: sampling stacks",
                              "ghc-stack-profiler", {}, std::nullopt, std::nullopt);
    ++counts_.profiler_virtual;
    return ctx_->profile.handle_for_stack(state, *frame);
}

StackHandle StackSampleContributor::stack_at(eventlog::ThreadId thread, std::uint64_t time, StackHandle state) {
    if (!ctx_ || profiler_messages_seen_ == 0) return state;  // most logs: nothing to look up
    if (writers_.contains(thread)) return profiler_stack(state, true);
    if (samplers_.contains(thread)) return profiler_stack(state, false);
    auto r = rings_.find(thread);
    if (r == rings_.end() || r->second.empty()) return state;
    Ring& ring = r->second;
    // The nearest sample: the first at or after `time`, or the one before it.
    auto after = std::lower_bound(ring.begin(), ring.end(), time,
                                  [](const Stored& s, std::uint64_t t) { return s.time < t; });
    Stored* best = nullptr;
    std::uint64_t distance = kStackReach + 1;
    if (after != ring.end() && after->time - time < distance) {
        best = &*after;
        distance = after->time - time;
    }
    if (after != ring.begin()) {
        Stored& before = *std::prev(after);
        if (time - before.time <= distance) best = &before;  // a tie goes to the one already taken
    }
    if (!best || (best->time > time ? best->time - time : time - best->time) > kStackReach) {
        ++counts_.virtual_without_stack;
        return state;
    }
    ++counts_.virtual_with_stack;
    const bool outermost_first = order_.outermost_first();
    if (!best->used && order_.basis() == stack_profiler::FrameOrder::Basis::assumed && best->frames.size() > 1)
        ++counts_.before_order_known;
    best->used = true;
    if (best->cached && best->cached_state == state && best->cached_outermost_first == outermost_first)
        return *best->cached;
    StackHandle s = state;
    Profile& p = ctx_->profile;
    if (outermost_first) {
        for (FrameHandle f : best->frames) s = p.handle_for_stack(s, f);
    } else {
        for (auto it = best->frames.rbegin(); it != best->frames.rend(); ++it) s = p.handle_for_stack(s, *it);
    }
    best->cached_state = state;
    best->cached = s;
    best->cached_outermost_first = outermost_first;
    return s;
}

std::optional<std::uint64_t> StackSampleContributor::median_period() const {
    if (gaps_.empty()) return std::nullopt;
    std::vector<std::uint64_t> g = gaps_;
    auto mid = g.begin() + static_cast<std::ptrdiff_t>(g.size() / 2);
    std::nth_element(g.begin(), mid, g.end());
    return *mid;
}

void StackSampleContributor::contribute(ProfileContext& context, std::uint64_t /*end*/) {
    assembler_.finish();
    for (auto& [thread, ring] : rings_)
        for (const Stored& s : ring) ++(s.used ? counts_.shown : counts_.not_shown);
    rings_.clear();
    const stack_profiler::AssemblerCounts& a = assembler_.counts();
    if (profiler_messages_seen_ == 0 && a.malformed == 0 && a.unknown_format == 0) return;
    diagnostics_.add(Diagnostic::stack_sample_frame_without_ipe, counts_.frames_without_ipe);
    diagnostics_.add(Diagnostic::stack_sample_undefined_symbol, counts_.undefined_strings + counts_.undefined_locations);
    diagnostics_.add(Diagnostic::stack_sample_truncated, a.truncated);
    diagnostics_.add(Diagnostic::stack_sample_interleaved, a.interleaved);
    diagnostics_.add(Diagnostic::stack_sample_oversized, a.oversized);
    diagnostics_.add(Diagnostic::stack_profiler_message_malformed, a.malformed);
    diagnostics_.add(Diagnostic::stack_profiler_unknown_format, a.unknown_format);
    diagnostics_.add(Diagnostic::stack_profiler_layout_conflict, a.layout_conflicts);
    add_summary(context);
}

void StackSampleContributor::add_summary(ProfileContext& context) {
    Profile& p = context.profile;
    const stack_profiler::AssemblerCounts& a = assembler_.counts();
    auto integer = [](std::uint64_t n) { return ExtraValue::integer(static_cast<std::int64_t>(n)); };
    ExtraSectionHandle s = p.add_extra_section(context.section_label("Stack samples (ghc-stack-profiler)"));
    std::string format;
    switch (assembler_.layout()) {
        case stack_profiler::Layout::v0_3: format = "0.3 or later"; break;
        case stack_profiler::Layout::v0_1: format = "0.1 or 0.2"; break;
        case stack_profiler::Layout::unknown: format = "0.1 to 0.4 (same bytes but for the frame order)"; break;
    }
    if (a.messages == 0 && a.unknown_format > 0) format = "unknown (a pre-release or newer format): not read";
    p.add_extra_entry(s, "Message format", ExtraValue::text(format));
    std::string order = order_.outermost_first() ? "outermost frame first" : "innermost frame first";
    switch (order_.basis()) {
        case stack_profiler::FrameOrder::Basis::layout: order += " (the release's layout)"; break;
        case stack_profiler::FrameOrder::Basis::shape:
            order += " (from the stacks: " + std::to_string(order_.outermost_votes()) + " samples kept their first frame, " +
                     std::to_string(order_.innermost_votes()) + " their last)";
            break;
        case stack_profiler::FrameOrder::Basis::assumed: order += " (assumed: nothing in the log tells)"; break;
    }
    p.add_extra_entry(s, "Frame order on the wire", ExtraValue::text(order));
    if (std::optional<std::uint64_t> period = median_period())
        p.add_extra_entry(s, "Sampling interval (median gap between a thread's samples)",
                          ExtraValue::duration(Duration::from_nanos(static_cast<std::int64_t>(*period))));
    p.add_extra_entry(s, "Samples", integer(a.samples));
    p.add_extra_entry(s, "Sampled threads", integer(per_thread_.size()));
    // The most sampled threads first (ten at most), by id on a tie.
    std::vector<std::pair<std::uint32_t, std::uint64_t>> by_thread(per_thread_.begin(), per_thread_.end());
    std::sort(by_thread.begin(), by_thread.end(), [](const auto& a, const auto& b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    std::string per_thread;
    for (std::size_t i = 0; i < by_thread.size() && i < 10; ++i) {
        if (!per_thread.empty()) per_thread += ", ";
        per_thread += context.thread_name(by_thread[i].first) + ": " + std::to_string(by_thread[i].second);
    }
    if (by_thread.size() > 10) per_thread += ", …";
    p.add_extra_entry(s, "Samples by thread", ExtraValue::text(per_thread));
    p.add_extra_entry(s, "Frames", integer(a.entries));
    p.add_extra_entry(s, "Deepest stack", integer(a.max_depth));
    if (a.empty_samples) p.add_extra_entry(s, "Empty stacks (no frame with an IPE entry)", integer(a.empty_samples));
    p.add_extra_entry(s, "Frames without IPE entry (shown by address)", integer(counts_.frames_without_ipe));
    if (counts_.addresses_without_ipe)
        p.add_extra_entry(s, "… distinct info tables without IPE entry (built without -finfo-table-map?)",
                          integer(counts_.addresses_without_ipe));
    if (counts_.undefined_strings)
        p.add_extra_entry(s, "Frames naming an undefined string", integer(counts_.undefined_strings));
    if (counts_.undefined_locations)
        p.add_extra_entry(s, "Frames naming an undefined source location", integer(counts_.undefined_locations));
    p.add_extra_entry(s, "IPE entries in the log", integer(ipe_.size()));
    p.add_extra_entry(s, "Samples shown (taken by the virtual samples near them)", integer(counts_.shown));
    if (counts_.not_shown)
        p.add_extra_entry(s, "Samples not shown (no virtual sample of their thread within 50 ms)",
                          integer(counts_.not_shown));
    if (counts_.without_track)
        p.add_extra_entry(s, "Samples of threads without a track of their own (not shown)",
                          integer(counts_.without_track));
    p.add_extra_entry(s, "Virtual samples given a Haskell stack", integer(counts_.virtual_with_stack));
    p.add_extra_entry(s, "Virtual samples of sampled threads without one (no sample within 50 ms)",
                      integer(counts_.virtual_without_stack));
    if (counts_.before_order_known)
        p.add_extra_entry(s, "Samples shown before the frame order was known", integer(counts_.before_order_known));
    auto thread_list = [&](const std::unordered_set<std::uint32_t>& ids) {
        std::vector<std::uint32_t> sorted(ids.begin(), ids.end());
        std::sort(sorted.begin(), sorted.end());
        std::string out;
        for (std::uint32_t id : sorted) {
            if (!out.empty()) out += ", ";
            out += context.thread_name(id);
        }
        return out;
    };
    if (!writers_.empty()) p.add_extra_entry(s, "The profiler's writer thread", ExtraValue::text(thread_list(writers_)));
    if (!samplers_.empty())
        p.add_extra_entry(s, "The profiler's sampling thread", ExtraValue::text(thread_list(samplers_)));
    if (a.chunks) p.add_extra_entry(s, "Stacks split over several messages", integer(a.chunks));
    if (a.interleaved)
        p.add_extra_entry(s, "Messages interleaved with another thread's chunks", integer(a.interleaved));
    if (a.truncated)
        p.add_extra_entry(s, "Stacks cut off by the end of the log (dropped)", integer(a.truncated));
    if (a.oversized) p.add_extra_entry(s, "Stacks over a million frames (dropped)", integer(a.oversized));
    if (a.malformed)
        p.add_extra_entry(s, "Messages in no known layout (left to traceBinaryEvent)", integer(a.malformed));
    if (a.unknown_format)
        p.add_extra_entry(s, "Messages in an unknown format (not read)", integer(a.unknown_format));
    if (a.layout_conflicts)
        p.add_extra_entry(s, "Messages of another release's layout", integer(a.layout_conflicts));
    if (a.redefined_differently)
        p.add_extra_entry(s, "Strings or locations redefined differently", integer(a.redefined_differently));
}

}  // namespace el2fx::convert

#include "convert/activity_stacks.hpp"

#include "analysis/run/forgotten_labels.hpp"

#include "analysis/threading/off_cpu_state.hpp"
#include "analysis/threading/stop_status_text.hpp"

namespace el2fx::convert {

using namespace el2fx::fxprof;
using analysis::CapabilityActivity;
using analysis::CapabilityState;
using analysis::GcPhase;
using analysis::kGcPhases;
using analysis::ThreadActivity;
using analysis::ThreadState;
using eventlog::ThreadId;

ActivityStacks::ActivityStacks(ProfileContext& context, const ThreadTrackLayout& layout)
    : ctx_(context),
      p_(context.profile),
      layout_(layout),
      other_(context.categories.other),
      idle_(context.categories.idle),
      running_(context.categories.running),
      gc_(context.categories.gc),
      gc_wait_(context.categories.gc_wait),
      memory_(context.categories.memory),
      stopped_categories_(context.categories.off_cpu()),
      threads_(context.threads.threads().size()) {}

ActivityStacks::PerThread* ActivityStacks::per_thread(ThreadId id) {
    std::optional<std::uint32_t> i = ctx_.threads.ordinal(id);
    if (i) return *i < threads_.size() ? &threads_[*i] : nullptr;
    if (!ctx_.thread_is_folded(id)) return nullptr;
    const auto [it, made] = forgotten_.try_emplace(id);  // one the census forgot
    if (made) {
        held_.insert(id);
        forgotten_entry_made(id);
    }
    return &it->second;
}

void ActivityStacks::thread_finished(ThreadId id, std::uint64_t time) {
    if (ctx_.threads.ordinal(id) || !ctx_.thread_is_folded(id)) return;
    finished_forgotten_.insert(id);
    latest_finish_ = std::max(latest_finish_, time);
    if (held_.contains(id)) forgotten_finished_.emplace_back(time, id);
    const std::uint64_t grace = run::forgotten_grace_ns(ctx_.options.sampling_interval_ns);
    while (!forgotten_finished_.empty() && forgotten_finished_.front().first + grace < time) {
        const ThreadId gone = forgotten_finished_.front().second;
        forgotten_.erase(gone);
        forgotten_names_.erase(gone);
        held_.erase(gone);
        forgotten_finished_.pop_front();
    }
}

CategoryHandle ActivityStacks::stopped_category(std::uint16_t status) const {
    return stopped_categories_[static_cast<std::size_t>(analysis::off_cpu_kind(status))];
}

FrameHandle ActivityStacks::frame(std::string_view name, CategoryHandle category) {
    FuncInfo f{.name = p_.handle_for_string(name)};
    FrameInfo fr{.func = p_.handle_for_func(f), .category = SubcategoryHandle(category)};
    return p_.handle_for_frame(fr);
}

std::string ActivityStacks::reason_text(const ThreadActivity& a) {
    std::string text = analysis::block_reason_text(a.reason);
    return text;
}

// The thread's name as a frame without a category of its own: under "Mutator" it is
// running, as the root of a folded thread's stacks it has the default one. In a profile
// of one run its name (with its id) is the thread's alone, so the name of a folded
// thread, its function, frame and the stacks it roots are added without interning
// (PerThread keeps them): 100,000s of threads would otherwise fill most of the tables'
// indexes. (An own track's name is interned already: add_thread_tracks.) Runs side by
// side share them, so that selecting both runs merges their call trees.
FrameHandle ActivityStacks::thread_frame(PerThread& t, ThreadId id) {
    if (t.frame) return *t.frame;
    const std::string text = ctx_.thread_name(id);
    if (ctx_.run_count > 1) {
        t.frame = p_.handle_for_frame({.func = p_.handle_for_func({.name = p_.handle_for_string(text)})});
    } else {
        const StringHandle name =
            !layout_.own_track_index(id) ? p_.add_distinct_string(text) : p_.handle_for_string(text);
        if (!ctx_.threads.ordinal(id)) {  // one the census forgot
            forgotten_names_.insert_or_assign(id, name);
            held_.insert(id);
        }
        t.frame = p_.add_distinct_frame({.func = p_.add_distinct_func({.name = name})});
    }
    return *t.frame;
}

void ActivityStacks::thread_labelled(ThreadId id) {
    if (!held_.contains(id)) return;
    auto it = forgotten_names_.find(id);
    if (it != forgotten_names_.end()) p_.replace_distinct_string(it->second, ctx_.thread_name(id));
}

// A stack under a thread's own frame (see thread_frame).
StackHandle ActivityStacks::thread_owned_stack(std::optional<StackHandle> prefix, FrameHandle frame) {
    return ctx_.run_count > 1 ? p_.handle_for_stack(prefix, frame) : p_.add_distinct_stack(prefix, frame);
}

// A capability in a collection: "GC" is the time spent collecting (its working phase a
// frame under it); waiting for the other GC threads or to be released, and the heap
// census, are roots of their own, so that a capability that only waits in a parallel GC
// (its OS thread descheduled: more capabilities than cores) does not read as collecting.
// All made at the first need of any, in a fixed order: two runs of one program then have
// the same functions whichever phases their samples happen to hit (the compare view and a
// selection of both runs match functions by name).
StackHandle ActivityStacks::gc_stack(GcPhase phase) {
    if (!gc_stacks_[0])
        for (std::size_t p = 0; p < kGcPhases; ++p) make_gc_stack(static_cast<GcPhase>(p));
    return *gc_stacks_[static_cast<std::size_t>(phase)];
}
void ActivityStacks::make_gc_stack(GcPhase phase) {
    auto& stack = gc_stacks_[static_cast<std::size_t>(phase)];
    switch (phase) {
        case GcPhase::collecting: stack = p_.handle_for_stack(std::nullopt, frame("GC", gc_)); break;
        case GcPhase::working: stack = p_.handle_for_stack(*gc_stacks_[0], frame("working", gc_)); break;
        case GcPhase::idle:
            stack = p_.handle_for_stack(std::nullopt, frame("GC idle: waiting for other GC threads", gc_wait_));
            break;
        case GcPhase::done:
            stack = p_.handle_for_stack(std::nullopt, frame("GC done: waiting to be released", gc_wait_));
            break;
        case GcPhase::census: stack = p_.handle_for_stack(std::nullopt, frame("Heap census", memory_)); break;
    }
}

StackHandle ActivityStacks::capability_stack(const CapabilityActivity& a) {
    switch (a.state) {
        case CapabilityState::idle:
            if (!idle_stack_) idle_stack_ = p_.handle_for_stack(std::nullopt, frame("Idle", idle_));
            return *idle_stack_;
        case CapabilityState::gc: return gc_stack(a.phase);
        case CapabilityState::mutator: break;
    }
    // One statement per interning call: the order of a call's arguments differs between
    // compilers, and the tables' order must not.
    const StackHandle mutator = mutator_stack();
    PerThread* t = per_thread(a.thread);
    if (!t) {  // not in the census
        const FrameHandle name = frame(ctx_.thread_name(a.thread), running_);
        return p_.handle_for_stack(mutator, name);
    }
    if (!t->mutator_stack) {
        const FrameHandle name = thread_frame(*t, a.thread);
        t->mutator_stack = thread_owned_stack(mutator, name);
    }
    return *t->mutator_stack;
}

StackHandle ActivityStacks::mutator_stack() {
    if (!mutator_root_) mutator_root_ = p_.handle_for_stack(std::nullopt, frame("Mutator", running_));
    return *mutator_root_;
}

// A thread's own track: stacks interned once per (state, reason), one lookup per sample
// instead of four (string, func, frame, stack).
StackHandle ActivityStacks::thread_stack(const ThreadActivity& a) {
    ThreadStackKey k{a.state == ThreadState::running, a.reason.status,
                     a.state == ThreadState::running ? 0u : a.reason.blocker};
    auto it = thread_stacks_.find(k);
    if (it != thread_stacks_.end()) return it->second;
    StackHandle s = activity_stack(a, std::nullopt);
    thread_stacks_.emplace(k, s);
    return s;
}

// Running, or why it stopped → reason (Waiting for GC → heap overflow, Blocked → blocked
// on an MVar, …), under the prefix (a folded thread's name).
StackHandle ActivityStacks::activity_stack(const ThreadActivity& a, std::optional<StackHandle> prefix) {
    if (a.state == ThreadState::running) return p_.handle_for_stack(prefix, running_frame());
    return reason_stack(p_.handle_for_stack(prefix, stopped_frame(stopped_kind(a))), a);
}

analysis::OffCpuKind ActivityStacks::stopped_kind(const ThreadActivity& a) {
    return analysis::off_cpu_kind(a.reason.status);
}

FrameHandle ActivityStacks::running_frame() {
    if (!running_frame_) running_frame_ = frame("Running", running_);
    return *running_frame_;
}
// The root frames of the kinds of stop, all made at the first need of any (see gc_stack).
FrameHandle ActivityStacks::stopped_frame(analysis::OffCpuKind kind) {
    if (!stopped_frames_[0])
        for (std::size_t k = 0; k < analysis::kOffCpuKinds; ++k)
            stopped_frames_[k] =
                frame(analysis::off_cpu_kind_name(static_cast<analysis::OffCpuKind>(k)), stopped_categories_[k]);
    return *stopped_frames_[static_cast<std::size_t>(kind)];
}

// The reason a thread stopped, under its kind's stack.
StackHandle ActivityStacks::reason_stack(StackHandle stopped, const ThreadActivity& a) {
    return p_.handle_for_stack(stopped, reason_frame(a).frame);
}

ActivityStacks::ReasonFrame& ActivityStacks::reason_frame(const ThreadActivity& a) {
    ReasonKey k{a.reason.status, a.reason.blocker};
    auto it = reason_frames_.find(k);
    if (it == reason_frames_.end())
        it = reason_frames_.emplace(k, ReasonFrame{frame(reason_text(a), stopped_category(a.reason.status)), {}}).first;
    return it->second;
}

// A folded thread's stack without its name: the same stacks as activity_stack's under the
// anonymous root, made in the same order, each once.
StackHandle ActivityStacks::anonymous_stack(const ThreadActivity& a) {
    if (!anonymous_root_) anonymous_root_ = p_.handle_for_stack(std::nullopt, frame("a folded thread", other_));
    if (a.state == ThreadState::running) {
        if (!anonymous_running_) anonymous_running_ = p_.handle_for_stack(*anonymous_root_, running_frame());
        return *anonymous_running_;
    }
    const analysis::OffCpuKind kind = stopped_kind(a);
    auto& stopped = anonymous_stopped_[static_cast<std::size_t>(kind)];
    if (!stopped) stopped = p_.handle_for_stack(*anonymous_root_, stopped_frame(kind));
    ReasonFrame& reason = reason_frame(a);
    if (!reason.anonymous) reason.anonymous = p_.handle_for_stack(*stopped, reason.frame);
    return *reason.anonymous;
}

// A folded thread's stack: its name, then what it did. Its stacks down to "Running" and
// each kind of stop are kept, to look up only the reason for each sample.
StackHandle ActivityStacks::folded_stack(ThreadId id, const ThreadActivity& a) {
    if (!ctx_.options.folded_thread_names) return anonymous_stack(a);  // the output budget's choice
    PerThread* t = per_thread(id);
    if (!t) return activity_stack(a, p_.handle_for_stack(std::nullopt, frame(ctx_.thread_name(id), other_)));
    if (!t->folded_root) t->folded_root = thread_owned_stack(std::nullopt, thread_frame(*t, id));
    if (a.state == ThreadState::running) {
        if (!t->folded_running) t->folded_running = thread_owned_stack(*t->folded_root, running_frame());
        return *t->folded_running;
    }
    const analysis::OffCpuKind kind = stopped_kind(a);
    auto& stopped = t->folded_stopped[static_cast<std::size_t>(kind)];
    if (!stopped) stopped = thread_owned_stack(*t->folded_root, stopped_frame(kind));
    return reason_stack(*stopped, a);
}

}  // namespace el2fx::convert

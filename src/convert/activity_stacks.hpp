// The call stacks samples stand on. A capability: "Mutator → thread", "GC" (its working phase
// under it), "GC idle: …" and "GC done: …" waits, "Heap census", "Idle". A Haskell thread:
// "Running", or its kind of stop → why ("Blocked → blocked on an MVar"); on the shared track
// of the folded threads, each thread's name above them. Frames and stacks are interned once
// and looked up by what they stand for, one lookup per sample.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <memory_resource>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analysis/threading/threading_sink.hpp"
#include "convert/profile_context.hpp"
#include "convert/thread_track_layout.hpp"
#include "fxprof/handles.hpp"
#include "util/id_map.hpp"
#include "util/recycling_memory.hpp"

namespace el2fx::convert {

class ActivityStacks {
public:
    // After the layout: a thread's name is interned as a string only on its own track.
    ActivityStacks(ProfileContext& context, const ThreadTrackLayout& layout);

    fxprof::StackHandle capability_stack(const analysis::CapabilityActivity& a);
    // A sample on a thread's own track.
    fxprof::StackHandle thread_stack(const analysis::ThreadActivity& a);
    // A sample of a folded thread on the shared track.
    fxprof::StackHandle folded_stack(eventlog::ThreadId id, const analysis::ThreadActivity& a);
    // The thread finished (its moment): a thread the census forgot is forgotten here too, a
    // while later (its last samples may come after the moment).
    void thread_finished(eventlog::ThreadId id, std::uint64_t time);
    // The thread was labelled (its moment): a forgotten thread named already is renamed, as
    // the catalog would have named it by its last label from the start.
    void thread_labelled(eventlog::ThreadId id);

private:
    // What is kept of every Haskell thread, by the census's thread ordinal: its stacks once made.
    struct PerThread {
        fxprof::CompactOptional<fxprof::FrameHandle> frame;
        fxprof::CompactOptional<fxprof::StackHandle> mutator_stack, folded_root, folded_running;
        std::array<fxprof::CompactOptional<fxprof::StackHandle>, analysis::kOffCpuKinds>
            folded_stopped;  // by OffCpuKind
    };
    struct ThreadStackKey {
        bool running;
        std::uint16_t status;
        eventlog::ThreadId blocker;
        bool operator==(const ThreadStackKey&) const = default;
    };
    struct ThreadStackKeyHash {
        std::size_t operator()(const ThreadStackKey& k) const noexcept {
            std::uint64_t h = (std::uint64_t{k.status} << 1) ^ k.running;
            return static_cast<std::size_t>(
                (h ^ (std::uint64_t{k.blocker} * 0x9E3779B97F4A7C15ull)) * 0xBF58476D1CE4E5B9ull >> 7);
        }
    };
    using ReasonKey = std::pair<std::uint16_t, eventlog::ThreadId>;  // (stop status, blocker)
    struct ReasonKeyHash {
        std::size_t operator()(const ReasonKey& k) const noexcept {
            return static_cast<std::size_t>((std::uint64_t{k.first} << 32 ^ k.second) * 0x9E3779B97F4A7C15ull >> 7);
        }
    };

    PerThread* per_thread(eventlog::ThreadId id);
    fxprof::FrameHandle frame(std::string_view name, fxprof::CategoryHandle category);
    std::string reason_text(const analysis::ThreadActivity& a);
    fxprof::FrameHandle thread_frame(PerThread& t, eventlog::ThreadId id);
    fxprof::StackHandle thread_owned_stack(std::optional<fxprof::StackHandle> prefix, fxprof::FrameHandle frame);
    fxprof::StackHandle gc_stack(analysis::GcPhase phase);
    void make_gc_stack(analysis::GcPhase phase);
    fxprof::StackHandle mutator_stack();
    fxprof::StackHandle activity_stack(const analysis::ThreadActivity& a, std::optional<fxprof::StackHandle> prefix);
    static analysis::OffCpuKind stopped_kind(const analysis::ThreadActivity& a);
    fxprof::FrameHandle running_frame();
    fxprof::FrameHandle stopped_frame(analysis::OffCpuKind kind);
    fxprof::StackHandle reason_stack(fxprof::StackHandle stopped, const analysis::ThreadActivity& a);
    struct ReasonFrame {
        fxprof::FrameHandle frame;
        std::optional<fxprof::StackHandle> anonymous;  // its stack under the anonymous root's kind of stop
    };
    ReasonFrame& reason_frame(const analysis::ThreadActivity& a);
    fxprof::StackHandle anonymous_stack(const analysis::ThreadActivity& a);
    fxprof::CategoryHandle stopped_category(std::uint16_t status) const;

    ProfileContext& ctx_;
    fxprof::Profile& p_;
    const ThreadTrackLayout& layout_;
    // The threads the census forgot (ProfileContext::thread_is_folded), while they live: they
    // get the same frames and stacks as the catalog's folded threads, and cost nothing once
    // finished. By when they finished, to drop them in order: only those that hold an entry
    // (most of millions of short-lived threads never get one), or get one after their finish
    // (then by the latest finish so far), so memory follows what is held.
    // Their nodes come and go with millions of threads: recycled, not each from the heap.
    util::RecyclingMemory forgotten_nodes_;
    std::pmr::unordered_map<eventlog::ThreadId, PerThread> forgotten_{&forgotten_nodes_};
    std::pmr::unordered_map<eventlog::ThreadId, fxprof::StringHandle> forgotten_names_{
        &forgotten_nodes_};  // a distinct string each
    std::deque<std::pair<std::uint64_t, eventlog::ThreadId>> forgotten_finished_;
    util::IdSet finished_forgotten_;  // every forgotten thread that finished (a bit each)
    // The keys of forgotten_ and forgotten_names_: a bit to test as each of millions of threads
    // finishes, not two hash lookups.
    util::IdSet held_;
    std::uint64_t latest_finish_ = 0;
    // An entry was made for the forgotten thread `id`: one that finished already is dropped
    // in its turn.
    void forgotten_entry_made(eventlog::ThreadId id) {
        if (finished_forgotten_.contains(id)) forgotten_finished_.emplace_back(latest_finish_, id);
    }
    fxprof::CategoryHandle other_{0}, idle_{0}, running_{0}, gc_{0}, gc_wait_{0}, memory_{0};
    // Folded threads without their names: the root and the stacks under it, kept (every sample
    // of millions of threads asks for one).
    std::optional<fxprof::StackHandle> anonymous_root_, anonymous_running_;
    std::array<std::optional<fxprof::StackHandle>, analysis::kOffCpuKinds> anonymous_stopped_;  // by OffCpuKind
    std::array<fxprof::CategoryHandle, analysis::kOffCpuKinds> stopped_categories_;             // by OffCpuKind
    std::vector<PerThread> threads_;  // by the census's thread ordinal
    std::unordered_map<ThreadStackKey, fxprof::StackHandle, ThreadStackKeyHash> thread_stacks_;
    std::unordered_map<ReasonKey, ReasonFrame, ReasonKeyHash> reason_frames_;
    std::optional<fxprof::FrameHandle> running_frame_;
    std::array<std::optional<fxprof::FrameHandle>, analysis::kOffCpuKinds> stopped_frames_;  // by OffCpuKind
    std::optional<fxprof::StackHandle> idle_stack_, mutator_root_;
    std::array<std::optional<fxprof::StackHandle>, analysis::kGcPhases> gc_stacks_;  // by GcPhase
};

}  // namespace el2fx::convert

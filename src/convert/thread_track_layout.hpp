// Which tracks a run gets (design.md, "How the eventlog maps onto the profile"): its process
// with its own track, one per capability, one per Haskell thread for the labelled and the
// busiest up to --max-threads (all with --all-threads), and one "other threads" track that
// the rest share; and which of them the profiler shows first. Laid out from the census
// before the second pass, and noted in the ProfileContext for every contributor.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "convert/profile_context.hpp"
#include "fxprof/profile.hpp"
#include "util/recent_ids.hpp"

namespace el2fx::convert {

struct MappingSummary {
    std::size_t thread_tracks = 0;   // Haskell threads with a track of their own
    std::size_t folded_threads = 0;  // Haskell threads in the shared track
};

class ThreadTrackLayout {
public:
    struct OwnTrack {
        fxprof::ThreadHandle handle;
        eventlog::ThreadId id;
    };

    // `context.census` must be set, and outlive the layout.
    explicit ThreadTrackLayout(ProfileContext& context) : ctx_(context) {}

    // Adds the process and every track.
    void lay_out();
    // Capabilities first, then the busiest threads with their own track.
    void choose_visible_tracks();

    // The tracks of the capabilities the census saw, by capability (as ctx.capability_tracks).
    const std::map<eventlog::CapNo, fxprof::ThreadHandle>& capability_tracks() const { return ctx_.capability_tracks; }
    // The threads with a track of their own, in creation order.
    const std::vector<OwnTrack>& own_tracks() const { return own_; }
    // A thread's index in own_tracks(); none for a folded thread (or one the census missed).
    // Asked for every span, sample and moment: a recently asked thread is answered from recent_.
    std::optional<std::uint32_t> own_track_index(eventlog::ThreadId id) const {
        if (const std::optional<std::uint32_t>* own = recent_.find(id)) return *own;
        return recent_.note(id, find_own_track(id));
    }
    // The shared track of the folded threads, if any.
    std::optional<fxprof::ThreadHandle> folded_track() const { return folded_; }
    const MappingSummary& summary() const { return summary_; }

private:
    static constexpr std::uint32_t kFolded = UINT32_MAX, kWanted = UINT32_MAX - 1;

    std::optional<std::uint32_t> find_own_track(eventlog::ThreadId id) const {
        std::optional<std::uint32_t> i = ctx_.threads.ordinal(id);
        if (!i || *i >= own_by_ordinal_.size() || own_by_ordinal_[*i] >= own_.size()) return std::nullopt;
        return own_by_ordinal_[*i];
    }

    void add_capability_tracks();
    void choose_thread_tracks();
    void add_thread_tracks();
    std::string unique_pid(const std::string& pid) const;

    ProfileContext& ctx_;
    MappingSummary summary_;
    fxprof::ProcessHandle process_{0};
    std::vector<fxprof::ThreadHandle> capability_order_;
    // By the census's thread ordinal (a log may have 100,000s of threads): the index of its
    // own track in own_, or kFolded (kWanted while choosing).
    std::vector<std::uint32_t> own_by_ordinal_;
    std::vector<OwnTrack> own_;
    std::optional<fxprof::ThreadHandle> folded_;
    // Recent answers of own_track_index(), fixed once laid out: lay_out() clears it and gives
    // it room for the own threads.
    mutable util::RecentIds<std::optional<std::uint32_t>> recent_;
};

}  // namespace el2fx::convert

// The order threads are written in: the threads the profiler shows at first go first.
//
// Why: the profiler's Share and Download panels, with "Include hidden threads" unticked, drop
// every hidden thread and renumber the rest, but keep meta.initialVisibleThreads and
// meta.initialSelectedThreads as they were. Opened afresh, an index past the new end makes the
// profiler fail ("Could not download the profile. Error: Expected an item to exist…"), and an
// index that moved shows the wrong track. When the shown threads are threads 0..k-1, dropping
// the others leaves those indexes naming the same threads.
//
// "Shown at first" follows the profiler (tracks.ts, _computeHiddenTracksForVisibleThreads): the
// threads listed in meta.initialVisibleThreads, and the main thread (global track) of every
// process with a listed thread. Without a list every thread counts as shown (nothing to keep).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace el2fx::fxprof {

class Profile;

// What the rule needs of a thread: its process (pid) and whether it is that process's track.
struct ThreadSlot {
    std::string_view pid;
    bool is_main = false;
};

// shown[i]: thread i is shown when the profile is opened. Indexes past the end are ignored.
std::vector<bool> threads_shown_at_first(std::span<const ThreadSlot> threads,
                                         std::span<const std::uint32_t> initially_visible);

// order[position] = thread index: the shown threads, then the others, each in index order
// (so with meta.keepProfileThreadOrder the first screen's track order is unchanged).
std::vector<std::uint32_t> shown_first_order(const std::vector<bool>& shown);

// For a profile being written: order[position] = ThreadHandle index.
std::vector<std::uint32_t> thread_write_order(const Profile& profile);

// How many leading threads are shown, or -1 when a shown thread follows a hidden one (the
// profile is not safe to share without its hidden threads).
std::int64_t shown_prefix_length(const std::vector<bool>& shown);

}  // namespace el2fx::fxprof

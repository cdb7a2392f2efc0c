#include "convert/thread_track_layout.hpp"

#include <algorithm>

#include "analysis/run/run_census.hpp"
#include "convert/run_info_contributor.hpp"

namespace el2fx::convert {
namespace {

using namespace el2fx::fxprof;
using eventlog::ThreadId;

// Capability tracks get tids far from Haskell thread ids, so the two never read alike.
constexpr std::int64_t kCapabilityTidBase = 1'000'000'000;
// The profiler shows this many tracks by default; we choose which.
constexpr std::size_t kInitiallyVisible = 15;

Timestamp at(std::uint64_t ns) { return Timestamp::from_nanos(static_cast<std::int64_t>(ns)); }

}  // namespace

void ThreadTrackLayout::lay_out() {
    const std::uint64_t end = run_end_time(ctx_);
    std::string pid = unique_pid(ctx_.run.pid ? std::to_string(*ctx_.run.pid) : "0");
    Profile& p_ = ctx_.profile;
    process_ = p_.add_process(process_name(ctx_), pid, at(ctx_.run.first_time));
    p_.set_process_end_time(process_, at(end));
    ctx_.process = process_;
    // The process's own track: process-wide markers (collections, user markers).
    ctx_.process_track = p_.add_thread(process_, process_name(ctx_), ctx_.run.pid.value_or(0), at(ctx_.run.first_time),
                                       /*is_main_thread=*/true);
    p_.set_thread_end_time(ctx_.process_track, at(end));
    p_.set_thread_show_markers_in_timeline(ctx_.process_track, true);
    add_capability_tracks();
    choose_thread_tracks();
    add_thread_tracks();
    // Answers given while laying out may have changed. Room for each own thread's, as most
    // questions are of those where the threads are few (a service's handlers).
    recent_.reset(util::recent_slots_for(own_.size()));
}

// Runs in one profile may share a pid: the later ones get "1234.1", "1234.2" (as samply does).
std::string ThreadTrackLayout::unique_pid(const std::string& pid) const {
    auto taken = [&](const std::string& candidate) {
        for (const Process& p : ctx_.profile.processes())
            if (p.pid == candidate) return true;
        return false;
    };
    std::string candidate = pid;
    for (int n = 1; taken(candidate); ++n) candidate = pid + "." + std::to_string(n);
    return candidate;
}

// One per capability the census saw, from its first event to the end of the log.
void ThreadTrackLayout::add_capability_tracks() {
    Profile& p_ = ctx_.profile;
    for (const auto& [cap, start] : ctx_.census->capability_starts) {
        ThreadHandle t =
            p_.add_thread(process_, "Capability " + std::to_string(cap), kCapabilityTidBase + cap, at(start));
        p_.set_thread_end_time(t, at(run_end_time(ctx_)));
        p_.set_thread_show_markers_in_timeline(t, true);
        ctx_.capability_tracks.insert_or_assign(cap, t);
        capability_order_.push_back(t);
    }
}

// Labelled threads first, then the busiest (time running, from the census), up to the
// limit; the rest are folded (run::ThreadRank). The census forgot only threads ranking below
// the limit it was given, which is at least this one.
void ThreadTrackLayout::choose_thread_tracks() {
    const std::vector<run::ThreadFacts>& threads = ctx_.threads.threads();
    std::vector<run::ThreadRank> ranked;
    ranked.reserve(threads.size());
    for (std::size_t i = 0; i < threads.size(); ++i)
        ranked.push_back({threads[i].labelled(), ctx_.census->running_ns(threads[i].id), static_cast<std::uint32_t>(i)});
    const std::size_t limit = std::min(ranked.size(), ctx_.options.all_threads ? ranked.size() : ctx_.options.max_threads);
    const auto cut = ranked.begin() + static_cast<std::ptrdiff_t>(limit);
    std::partial_sort(ranked.begin(), cut, ranked.end(),
                      [](const run::ThreadRank& a, const run::ThreadRank& b) { return ranks_before(a, b); });
    own_by_ordinal_.assign(threads.size(), kFolded);
    for (auto it = ranked.begin(); it != cut; ++it) own_by_ordinal_[it->ordinal] = kWanted;
}

void ThreadTrackLayout::add_thread_tracks() {
    Profile& p_ = ctx_.profile;
    const std::vector<run::ThreadFacts>& threads = ctx_.threads.threads();
    // Threads the census forgot are folded: the shared track comes where the first stood.
    const std::optional<std::uint32_t> first_forgotten = ctx_.threads.first_forgotten_place();
    auto add_folded_track = [&] {
        if (folded_) return;
        folded_ = p_.add_thread(process_, "other threads", kCapabilityTidBase - 1, at(ctx_.run.first_time));
        p_.set_thread_show_markers_in_timeline(*folded_, false);
    };
    summary_.folded_threads = ctx_.threads.forgotten();
    for (std::size_t i = 0; i < threads.size(); ++i) {  // creation order
        const run::ThreadFacts& f = threads[i];
        if (first_forgotten && *first_forgotten == i) add_folded_track();
        if (own_by_ordinal_[i] == kWanted) {
            ThreadHandle t =
                p_.add_thread(process_, ctx_.thread_name(f.id), f.id, at(f.created().value_or(f.first_seen)));
            if (f.finished()) p_.set_thread_end_time(t, at(*f.finished()));
            p_.set_thread_show_markers_in_timeline(t, true);
            ctx_.set_thread_track(f.id, t, false);
            own_by_ordinal_[i] = static_cast<std::uint32_t>(own_.size());
            own_.push_back(OwnTrack{t, f.id});
            // Its name as a string whether or not a kept marker or a sample uses it, so two
            // runs of one program intern the same strings (the compare view matches by name).
            p_.handle_for_string(ctx_.thread_name(f.id));
            ++summary_.thread_tracks;
        } else {
            add_folded_track();
            ctx_.set_thread_track(f.id, *folded_, true);
            ++summary_.folded_threads;
        }
    }
    if (first_forgotten) add_folded_track();  // after them all
    if (folded_) ctx_.folded_track = *folded_;
}

// Capabilities first, then the busiest threads with their own track.
void ThreadTrackLayout::choose_visible_tracks() {
    Profile& p_ = ctx_.profile;
    std::size_t shown = 0;
    for (ThreadHandle t : capability_order_) {
        if (shown == kInitiallyVisible) return;
        p_.add_initial_visible_thread(t);
        ++shown;
    }
    std::vector<std::pair<std::uint64_t, ThreadHandle>> busy;
    for (const OwnTrack& track : own_) busy.push_back({ctx_.census->running_ns(track.id), track.handle});
    std::sort(busy.begin(), busy.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second.index() < b.second.index();
    });
    for (const auto& [b, t] : busy) {
        if (shown == kInitiallyVisible) break;
        p_.add_initial_visible_thread(t);
        ++shown;
    }
    // Several runs: the first run's is selected (selecting more merges their call trees).
    if (!capability_order_.empty() && ctx_.run_index == 0) p_.add_initial_selected_thread(capability_order_.front());
}

}  // namespace el2fx::convert

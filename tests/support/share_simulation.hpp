// What the profiler's Share (or Download) panel does to a written profile with "Include hidden
// threads" unticked, the tracks as they are when the profile is opened, re-done here from the
// profiler's code (selectors/publish.ts, profile-logic/sanitize.ts, tracks.ts) independently of
// src/fxprof/thread_order: a process's global track is hidden when none of its threads is in
// meta.initialVisibleThreads, a thread's local track when it is not listed; hidden threads are
// dropped, the rest renumbered, meta kept as it was. Then the recipient's profiler reads meta's
// thread lists against the new thread list.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "util/rapidjson.hpp"

namespace el2fx::testing {

struct SharedWithoutHiddenThreads {
    std::vector<std::size_t> kept;  // old indexes of the threads kept, in order
    std::vector<std::string> problems;
};

inline SharedWithoutHiddenThreads share_without_hidden_threads(const rapidjson::Value& profile) {
    SharedWithoutHiddenThreads out;
    const auto& threads = profile["threads"].GetArray();
    const auto& meta = profile["meta"];
    const std::size_t n = threads.Size();
    if (!meta.HasMember("initialVisibleThreads")) {
        for (std::size_t i = 0; i < n; ++i) out.kept.push_back(i);
        return out;
    }
    std::set<std::size_t> listed;
    std::set<std::string> visible_pids;
    for (const auto& v : meta["initialVisibleThreads"].GetArray()) {
        listed.insert(v.GetUint64());
        if (v.GetUint64() < n) visible_pids.insert(threads[v.GetUint()]["pid"].GetString());
    }
    std::map<std::size_t, std::size_t> old_to_new;
    for (std::size_t i = 0; i < n; ++i) {
        const auto& t = threads[static_cast<rapidjson::SizeType>(i)];
        const bool process_shown = visible_pids.count(t["pid"].GetString()) > 0;
        const bool removed = !process_shown || (!t["isMainThread"].GetBool() && !listed.count(i));
        if (removed) continue;
        old_to_new[i] = out.kept.size();
        out.kept.push_back(i);
    }
    // The recipient: every index must exist and name the thread it named before.
    for (const char* list : {"initialVisibleThreads", "initialSelectedThreads"}) {
        if (!meta.HasMember(list)) continue;
        for (const auto& v : meta[list].GetArray()) {
            const std::size_t i = v.GetUint64();
            const std::string what = std::string(list) + " " + std::to_string(i);
            if (i >= out.kept.size())
                out.problems.push_back(what + ": past the end of the " + std::to_string(out.kept.size()) +
                                       " threads kept (\"Expected an item to exist\")");
            else if (out.kept[i] != i)
                out.problems.push_back(what + ": now names thread " + std::to_string(out.kept[i]) + " (" +
                                       threads[static_cast<rapidjson::SizeType>(out.kept[i])]["name"].GetString() +
                                       ")");
        }
    }
    return out;
}

}  // namespace el2fx::testing

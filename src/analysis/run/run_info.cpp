#include "analysis/run/run_info.hpp"

#include "util/utf8.hpp"

namespace el2fx::run {
namespace {

std::string sanitized(std::string_view bytes) {
    std::string out;
    utf8::append_sanitized(out, bytes);
    return out;
}

}  // namespace

std::string RunInfo::ghc_version() const {
    // "GHC-9.0.2 rts_thr_l"
    if (rts_identifier.rfind("GHC-", 0) != 0) return {};
    std::size_t end = rts_identifier.find(' ');
    return rts_identifier.substr(4, end == std::string::npos ? std::string::npos : end - 4);
}

std::string RunInfo::rts_way() const {
    std::size_t at = rts_identifier.find(" rts");
    if (at == std::string::npos) return {};
    std::string way = rts_identifier.substr(at + 4);
    if (!way.empty() && way[0] == '_') way.erase(0, 1);
    return way;
}

std::string RunInfo::program_name() const {
    if (args.empty()) return {};
    const std::string& argv0 = args.front();
    std::size_t slash = argv0.find_last_of("/\\");
    return slash == std::string::npos ? argv0 : argv0.substr(slash + 1);
}

void RunInfoCollector::handle(const eventlog::Event& event) {
    using namespace eventlog;
    if (info_.events++ == 0) info_.first_time = event.time;
    if (event.tag >= info_.events_by_tag.size()) info_.events_by_tag.resize(event.tag + 1u, 0);
    ++info_.events_by_tag[event.tag];
    if (event.time > info_.last_time) info_.last_time = event.time;
    if (event.cap) {
        if (*event.cap >= seen_caps_.size()) seen_caps_.resize(*event.cap + 1u, false);
        if (!seen_caps_[*event.cap]) {
            seen_caps_[*event.cap] = true;
            ++info_.capabilities;
        }
    }
    std::visit(
        [&](const auto& p) {
            using T = std::decay_t<decltype(p)>;
            if constexpr (std::is_same_v<T, RtsIdentifier>) {
                info_.rts_identifier = sanitized(p.identifier.bytes);
            } else if constexpr (std::is_same_v<T, ProgramArgs>) {
                info_.args.clear();
                p.args.for_each([&](std::string_view a) { info_.args.push_back(sanitized(a)); });
            } else if constexpr (std::is_same_v<T, ProgramEnv>) {
                if (!collect_env_) return;
                info_.env.clear();
                p.env.for_each([&](std::string_view e) { info_.env.push_back(sanitized(e)); });
            } else if constexpr (std::is_same_v<T, OsProcessPid>) {
                info_.pid = p.pid;
            } else if constexpr (std::is_same_v<T, OsProcessParentPid>) {
                info_.ppid = p.ppid;
            } else if constexpr (std::is_same_v<T, WallClockTime>) {
                info_.wall_clock_unix_ns = p.sec * 1'000'000'000ull + p.nsec;
                info_.wall_clock_event_time = event.time;
            } else if constexpr (std::is_same_v<T, HeapInfoGHC>) {
                info_.generations = p.gens;
                info_.max_heap_size = p.max_heap_size;
                info_.alloc_area_size = p.alloc_area_size;
                info_.mblock_size = p.mblock_size;
                info_.block_size = p.block_size;
            } else if constexpr (std::is_same_v<T, CapCreate>) {
                if (p.cap >= seen_caps_.size()) seen_caps_.resize(p.cap + 1u, false);
                if (!seen_caps_[p.cap]) {
                    seen_caps_[p.cap] = true;
                    ++info_.capabilities;
                }
            }
        },
        event.payload);
}

}  // namespace el2fx::run

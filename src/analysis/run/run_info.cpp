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

void RunInfoCollector::count_rare_tag(std::uint16_t tag) {
    const std::size_t i = tag - kFewTags;
    if (i >= rare_by_tag_.size()) rare_by_tag_.resize(i + 1, 0);
    ++rare_by_tag_[i];
}

void RunInfoCollector::count(const eventlog::CountedRecords& counted) {
    static_assert(eventlog::CountedRecords::kTags <= kFewTags);
    for (std::size_t t = 0; t < eventlog::CountedRecords::kTags; ++t) few_by_tag_[t] += counted.by_tag[t];
    info_.events += counted.events();
    if (counted.latest_time > info_.last_time) info_.last_time = counted.latest_time;
}

// events_by_tag ends with the highest tag seen, as if it grew with each new one.
RunInfo RunInfoCollector::info() const {
    RunInfo info = info_;
    std::size_t size = kFewTags;
    if (rare_by_tag_.empty())
        while (size > 0 && few_by_tag_[size - 1] == 0) --size;
    info.events_by_tag.assign(few_by_tag_.begin(), few_by_tag_.begin() + static_cast<std::ptrdiff_t>(size));
    info.events_by_tag.insert(info.events_by_tag.end(), rare_by_tag_.begin(), rare_by_tag_.end());
    return info;
}

bool RunInfoCollector::tells(std::uint16_t tag) {
    using namespace eventlog;
    switch (tag) {
        case RtsIdentifier::tag:
        case ProgramArgs::tag:
        case ProgramEnv::tag:
        case OsProcessPid::tag:
        case OsProcessParentPid::tag:
        case WallClockTime::tag:
        case HeapInfoGHC::tag:
        case CapCreate::tag: return true;
        default: return false;
    }
}

// A switch on the tag, not a visit of the payload: a tag names one payload type (the
// decoder's table), and the switch leaves the other events at one jump.
void RunInfoCollector::note(const eventlog::Event& event) {
    using namespace eventlog;
    switch (event.tag) {
        case RtsIdentifier::tag:
            if (const auto* p = event.as<RtsIdentifier>()) info_.rts_identifier = sanitized(p->identifier.bytes);
            break;
        case ProgramArgs::tag:
            if (const auto* p = event.as<ProgramArgs>()) {
                info_.args.clear();
                p->args.for_each([&](std::string_view a) { info_.args.push_back(sanitized(a)); });
            }
            break;
        case ProgramEnv::tag:
            if (const auto* p = event.as<ProgramEnv>(); p && collect_env_) {
                info_.env.clear();
                p->env.for_each([&](std::string_view e) { info_.env.push_back(sanitized(e)); });
            }
            break;
        case OsProcessPid::tag:
            if (const auto* p = event.as<OsProcessPid>()) info_.pid = p->pid;
            break;
        case OsProcessParentPid::tag:
            if (const auto* p = event.as<OsProcessParentPid>()) info_.ppid = p->ppid;
            break;
        case WallClockTime::tag:
            if (const auto* p = event.as<WallClockTime>()) {
                info_.wall_clock_unix_ns = p->sec * 1'000'000'000ull + p->nsec;
                info_.wall_clock_event_time = event.time;
            }
            break;
        case HeapInfoGHC::tag:
            if (const auto* p = event.as<HeapInfoGHC>()) {
                info_.generations = p->gens;
                info_.max_heap_size = p->max_heap_size;
                info_.alloc_area_size = p->alloc_area_size;
                info_.mblock_size = p->mblock_size;
                info_.block_size = p->block_size;
            }
            break;
        case CapCreate::tag:
            if (const auto* p = event.as<CapCreate>()) see_capability(p->cap);
            break;
        default: break;
    }
}

}  // namespace el2fx::run

#include "convert/event_coverage.hpp"

#include <algorithm>
#include <array>
#include <cstdio>

#include "convert/contributors.hpp"
#include "eventlog/event_types.hpp"

namespace el2fx::convert {
namespace {

using namespace eventlog;

constexpr NotShown kNotShown[] = {
    {ThreadRunnable::tag,
     "not a change of state (threads run and stop by RUN_THREAD/STOP_THREAD); GHC no longer writes it"},
    {BlockMarker::tag, "framing of the file: starts one capability's block of events"},
    {OsProcessParentPid::tag, "the parent's process id: the profile names the process by its own id"},
    {HackBugT9003::tag, "carries nothing: declaring it only marks the STOP_THREAD numbering of GHC 7.8.3 and later"},
};
constexpr NotShown kEnvNotShown = {ProgramEnv::tag,
                                   "environment variables may hold secrets; --include-env puts them in the profile"};

template <typename... Ts>
std::vector<std::pair<std::uint16_t, std::string_view>> table_types(TypeList<Ts...>) {
    return {{Ts::tag, Ts::name}...};
}

bool contains(std::span<const std::uint16_t> tags, std::uint16_t tag) {
    return std::find(tags.begin(), tags.end(), tag) != tags.end();
}

}  // namespace

std::vector<NotShown> not_shown_event_types(const ConvertOptions& options) {
    std::vector<NotShown> out(std::begin(kNotShown), std::end(kNotShown));
    if (!options.include_env) out.push_back(kEnvNotShown);
    return out;
}

std::vector<EventTypeCoverage> event_coverage(const ConvertOptions& options,
                                              std::span<const ProfileContributor* const> contributors) {
    std::vector<NotShown> not_shown = not_shown_event_types(options);
    std::vector<EventTypeCoverage> out;
    for (const auto& [tag, name] : table_types(AllPayloads{})) {
        EventTypeCoverage c;
        c.tag = tag;
        c.name = name;
        for (const ProfileContributor* p : contributors)
            if (contains(p->shown_tags(), tag)) c.shown_by.emplace_back(p->name());
        if (c.shown_by.empty()) {
            c.not_shown = kNoPartShowsIt;
            for (const NotShown& n : not_shown)
                if (n.tag == tag) c.not_shown = n.reason;
        }
        out.push_back(std::move(c));
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.tag < b.tag; });
    return out;
}

std::vector<EventTypeCoverage> event_coverage(const ConvertOptions& options) {
    Diagnostics scratch;
    Contributors owned = make_contributors(options, scratch);
    std::vector<const ProfileContributor*> contributors;
    for (const auto& c : owned.all) contributors.push_back(c.get());
    return event_coverage(options, contributors);
}

std::string coverage_report(std::span<const std::uint64_t> events_by_tag, const ConvertOptions& options) {
    std::vector<EventTypeCoverage> coverage = event_coverage(options);
    std::string out = "Event types in the eventlog and where the profile shows them:\n";
    char line[160];
    std::snprintf(line, sizeof line, "  %5s  %-30s %10s  %s\n", "tag", "name", "count", "shown by");
    out += line;
    for (std::size_t tag = 0; tag < events_by_tag.size(); ++tag) {
        std::uint64_t n = events_by_tag[tag];
        if (n == 0) continue;
        auto it = std::find_if(coverage.begin(), coverage.end(), [&](const auto& c) { return c.tag == tag; });
        std::string name = it == coverage.end() ? "(unknown type)" : std::string(it->name);
        std::string where;
        if (it == coverage.end()) {
            where = "not shown: a type this tool does not know (skipped, counted as unknown_event_type)";
        } else if (it->shown_by.empty()) {
            where = "not shown: " + std::string(it->not_shown);
        } else {
            for (const std::string& part : it->shown_by) where += (where.empty() ? "" : ", ") + part;
        }
        std::snprintf(line, sizeof line, "  %5zu  %-30s %10llu  ", tag, name.c_str(),
                      static_cast<unsigned long long>(n));
        out += line;
        out += where;
        out += '\n';
    }
    return out;
}

}  // namespace el2fx::convert

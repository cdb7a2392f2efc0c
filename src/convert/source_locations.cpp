#include "convert/source_locations.hpp"

namespace el2fx::convert {
namespace {

constexpr std::size_t kListedFiles = 200;  // Profile Info rows; the rest are counted

}  // namespace

fxprof::Lib source_locations_lib() {
    fxprof::Lib lib;
    lib.name = std::string(sources::kLibName);
    lib.debug_name = std::string(sources::kLibDebugName);
    lib.breakpad_id = std::string(sources::kLibBreakpadId);
    return lib;
}

SourcesReport embed_sources(fxprof::Profile& profile, const sources::SourceRoots& roots, const SourceLimits& limits) {
    SourcesReport report;
    const std::vector<fxprof::StringHandle> files = profile.sources().filenames();  // a copy: the table grows
    for (std::size_t i = 0; i < files.size(); ++i) {
        const std::string name(profile.strings().get(files[i]));
        const std::uint64_t room = limits.max_total_bytes - std::min(report.bytes, limits.max_total_bytes);
        sources::SourceRoots::Text text = roots.read(name, std::min(limits.max_file_bytes, room));
        if (text.refusal == sources::Refusal::too_large && room < limits.max_file_bytes) {
            report.missing.emplace_back(name, "not embedded: the embedded files reached " +
                                                  std::to_string(limits.max_total_bytes >> 20) + " MiB");
            continue;
        }
        if (text.refusal != sources::Refusal::none) {
            std::string why(sources::describe(text.refusal));
            if (text.refusal == sources::Refusal::too_large)
                why += " (over " + std::to_string(limits.max_file_bytes >> 20) + " MiB)";
            report.missing.emplace_back(name, std::move(why));
            continue;
        }
        report.bytes += text.content.size();
        profile.set_source_content(fxprof::SourceHandle(static_cast<std::uint32_t>(i)), std::move(text.content));
        report.embedded.push_back(name);
    }

    const fxprof::ExtraSectionHandle section = profile.add_extra_section("Source files");
    using fxprof::ExtraValue;
    profile.add_extra_entry(section, "Embedded",
                            ExtraValue::text(std::to_string(report.embedded.size()) + " of " +
                                             std::to_string(files.size()) + " files named by the profile"));
    profile.add_extra_entry(section, "Embedded text", ExtraValue::bytes(static_cast<std::int64_t>(report.bytes)));
    std::size_t listed = 0;
    for (const std::string& name : report.embedded)
        if (listed++ < kListedFiles) profile.add_extra_entry(section, name, ExtraValue::text("embedded"));
    for (const auto& [name, why] : report.missing)
        if (listed++ < kListedFiles) profile.add_extra_entry(section, name, ExtraValue::text(why));
    if (listed > kListedFiles)
        profile.add_extra_entry(section, "More files",
                                ExtraValue::text(std::to_string(listed - kListedFiles) + " not listed"));
    return report;
}

}  // namespace el2fx::convert

#include "cli/version.hpp"

#include "cli/git_describe.hpp"
#include "fxprof/format_v70.hpp"

namespace el2fx::cli {

std::string version_text() {
    // EL2FX_VERSION is meson's project version, passed by src/cli/meson.build.
    std::string text = "eventlog2fxprof " EL2FX_VERSION;
    const std::string describe = EL2FX_GIT_DESCRIBE;
    if (!describe.empty()) text += " (git " + describe + ")";
    text += "\nwrites the Firefox Profiler's processed profile format, version ";
    text += std::to_string(fxprof::v70::kPreprocessedProfileVersion);
    text += "\n";
    return text;
}

}  // namespace el2fx::cli

// What `eventlog2fxprof --version` prints: the release, the commit it was built from when
// built from a git checkout, and the profile format version it writes.
#pragma once

#include <string>

namespace el2fx::cli {

std::string version_text();

}  // namespace el2fx::cli

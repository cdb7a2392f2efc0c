// The program's own source files, found under the directories the user names (`--sources
// DIR`), for the profiler's source view: embedded in a profile (convert) or answered to the
// profiler's /source/v1 requests (serve). A file name comes from an eventlog's source
// location, so it is hostile: it is looked up only under a directory, after resolving
// symbolic links and `..`, and refused when the real file is elsewhere, is not a regular
// file, is hidden (a component starting with '.' under the directory), is not a Haskell
// source (by its extension), is too large or is not UTF-8. Library code: no printing, errors
// are el2fx::Error.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace el2fx::sources {

inline constexpr std::uint64_t kDefaultMaxFileBytes = 2u << 20;    // per file
inline constexpr std::uint64_t kDefaultMaxTotalBytes = 32u << 20;  // per profile
inline constexpr std::size_t kMaxNameBytes = 4096;

// Why a named file gives no text.
enum class Refusal {
    none,
    bad_name,     // empty, too long, not UTF-8, a control character
    not_found,    // under no directory (or it escapes every one of them)
    not_source,   // hidden, or not a Haskell source file by its extension
    not_regular,  // a directory, device, FIFO, socket
    too_large,    // over the per-file bound
    not_utf8,
    unreadable,  // open or read failed
};
std::string_view describe(Refusal refusal);

// Whether a location's file name may be looked up at all (see Refusal::bad_name).
bool acceptable_name(std::string_view name);

// Whether a file name has the extension of a Haskell source (or of one that GHC's LINE
// pragmas point back to: .hs .lhs .hsc .hs-boot .lhs-boot .hsig .lhsig .x .y .ly .chs .cmm).
bool is_source_name(std::string_view name);

class SourceRoots {
public:
    SourceRoots() = default;
    // Resolves each directory now (realpath). Throws el2fx::Error when one is not a directory.
    explicit SourceRoots(const std::vector<std::string>& dirs);

    bool empty() const { return roots_.empty(); }
    const std::vector<std::string>& roots() const { return roots_; }  // resolved

    struct Found {
        std::string path;  // the real path (empty when refused)
        Refusal refusal = Refusal::not_found;
    };
    // Where `name` is: a relative name is tried under each directory in order, an absolute one
    // only if it lies under one. The first candidate that exists decides.
    Found find(std::string_view name) const;

    struct Text {
        std::string content;
        Refusal refusal = Refusal::none;
        std::string path;  // the real path read
    };
    // find(), then the file's text if it is at most max_bytes of UTF-8.
    Text read(std::string_view name, std::uint64_t max_bytes = kDefaultMaxFileBytes) const;

private:
    std::vector<std::string> roots_;
};

}  // namespace el2fx::sources

namespace el2fx::sources {

// The pseudo-library that frames with a source location point at (frameTable.lib, with the
// source's index as their address). The profiler asks a local symbol server's /source/v1 for
// a file's text only with such an "address proof" (profile-data.ts, findAddressProofForFile);
// `serve --sources` answers those requests for this library.
inline constexpr std::string_view kLibName = "Haskell sources";
inline constexpr std::string_view kLibDebugName = "ghc-source-locations";
inline constexpr std::string_view kLibBreakpadId = "000000000000000000000000000000000";

}  // namespace el2fx::sources

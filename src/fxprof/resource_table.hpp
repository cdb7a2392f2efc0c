// shared.resourceTable (where functions come from: a library, a package) and shared.sources
// (source files). Both are interned.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "fxprof/format_v70.hpp"
#include "fxprof/handles.hpp"

namespace el2fx::fxprof {

using v70::ResourceType;

struct Resource {
    StringHandle name;
    ResourceType type;
    bool operator==(const Resource&) const = default;
};

class ResourceTable {
public:
    ResourceHandle handle_for(const Resource& r);
    const std::vector<Resource>& rows() const { return rows_; }
    std::size_t size() const { return rows_.size(); }

private:
    std::vector<Resource> rows_;
    std::unordered_map<std::uint64_t, std::uint32_t> index_;  // (name, type) -> row
};

// A whole source file (startLine/startColumn 1, no id), with its text when given
// (the profiler's source view shows it; null: the profiler may ask a symbol server).
class SourceTable {
public:
    SourceHandle handle_for(StringHandle filename);
    void set_content(SourceHandle source, std::string content);
    const std::vector<StringHandle>& filenames() const { return filenames_; }
    // nullptr when the source has no text in the profile.
    const std::string* content(std::size_t i) const {
        return i < contents_.size() && contents_[i] ? &*contents_[i] : nullptr;
    }
    bool has_content() const { return !contents_.empty(); }
    std::size_t size() const { return filenames_.size(); }

private:
    std::vector<StringHandle> filenames_;
    std::vector<std::optional<std::string>> contents_;  // empty until a content is set
    std::unordered_map<StringHandle, std::uint32_t> index_;
};

// libs[]: a library frames point at (frameTable.lib). For us only the pseudo-library of
// source locations, whose frames give the profiler an "address proof" to ask a local
// server's /source/v1 for a file (profile-data.ts, findAddressProofForFile).
struct Lib {
    std::string name{}, path{}, debug_name{}, debug_path{}, breakpad_id{}, code_id{}, arch{};
    bool operator==(const Lib&) const = default;
};

}  // namespace el2fx::fxprof

// shared.resourceTable (where functions come from: a library, a package) and shared.sources
// (source files). Both are interned.
#pragma once

#include <cstdint>
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

// A whole source file (startLine/startColumn 1, no id, no content).
class SourceTable {
public:
    SourceHandle handle_for(StringHandle filename);
    const std::vector<StringHandle>& filenames() const { return filenames_; }
    std::size_t size() const { return filenames_.size(); }

private:
    std::vector<StringHandle> filenames_;
    std::unordered_map<StringHandle, std::uint32_t> index_;
};

}  // namespace el2fx::fxprof

#include "fxprof/resource_table.hpp"

#include "util/error.hpp"

namespace el2fx::fxprof {

ResourceHandle ResourceTable::handle_for(const Resource& r) {
    const std::uint64_t key = (std::uint64_t(r.name.index()) << 8) | std::uint64_t(r.type);
    if (auto it = index_.find(key); it != index_.end()) return ResourceHandle(it->second);
    if (rows_.size() >= INT32_MAX) throw Error("profile resource table is full");
    const auto index = static_cast<std::uint32_t>(rows_.size());
    rows_.push_back(r);
    index_.emplace(key, index);
    return ResourceHandle(index);
}

SourceHandle SourceTable::handle_for(StringHandle filename) {
    if (auto it = index_.find(filename); it != index_.end()) return SourceHandle(it->second);
    if (filenames_.size() >= INT32_MAX) throw Error("profile source table is full");
    const auto index = static_cast<std::uint32_t>(filenames_.size());
    filenames_.push_back(filename);
    index_.emplace(filename, index);
    return SourceHandle(index);
}

void SourceTable::set_content(SourceHandle source, std::string content) {
    if (source.index() >= filenames_.size()) throw Error("profile: unknown source handle");
    if (contents_.size() < filenames_.size()) contents_.resize(filenames_.size());
    contents_[source.index()] = std::move(content);
}

}  // namespace el2fx::fxprof

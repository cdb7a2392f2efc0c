// shared.stackTable: a tree of (prefix, frame) nodes, interned. A prefix always exists before
// the stacks that extend it, so parents precede children and the v70 encoding
// prefixOffset = index - prefixIndex (0 for a root) is always positive.
#pragma once

#include <cstdint>
#include <optional>

#include "fxprof/flat_index.hpp"
#include "fxprof/handles.hpp"
#include "util/chunked_vector.hpp"

namespace el2fx::fxprof {

class StackTable {
public:
    StackHandle handle_for(std::optional<StackHandle> prefix, FrameHandle frame);
    // As FuncTable::add_distinct: appended without an index entry (a thread's own stacks).
    StackHandle add_distinct(std::optional<StackHandle> prefix, FrameHandle frame);

    std::size_t size() const { return frames_.size(); }
    FrameHandle frame(StackHandle s) const { return FrameHandle(frames_[s.index()]); }
    std::optional<StackHandle> prefix(StackHandle s) const {
        const std::uint32_t p = prefixes_[s.index()];
        return p == kRoot ? std::nullopt : std::optional<StackHandle>(StackHandle(p));
    }
    // The value written in the prefixOffset column.
    std::uint32_t prefix_offset(std::uint32_t index) const {
        const std::uint32_t p = prefixes_[index];
        return p == kRoot ? 0 : index - p;
    }
    // The value written in the frame column.
    std::uint32_t frame_index(std::uint32_t index) const { return frames_[index]; }

private:
    static constexpr std::uint32_t kRoot = UINT32_MAX;
    // In blocks: a profile of 100,000s of Haskell threads has millions of stacks.
    util::ChunkedVector<std::uint32_t> frames_;
    util::ChunkedVector<std::uint32_t> prefixes_;  // kRoot for roots
    FlatIndex index_;                              // (prefix, frame) -> stack
};

}  // namespace el2fx::fxprof

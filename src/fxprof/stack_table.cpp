#include "fxprof/stack_table.hpp"

#include "util/error.hpp"

namespace el2fx::fxprof {

StackHandle StackTable::handle_for(std::optional<StackHandle> prefix, FrameHandle frame) {
    const std::uint32_t p = prefix ? prefix->index() : kRoot;
    if (prefix && p >= frames_.size()) throw Error("unknown prefix stack handle");
    const std::uint64_t key = (std::uint64_t(p) << 32) | frame.index();
    if (auto it = index_.find(key); it != index_.end()) return StackHandle(it->second);
    if (frames_.size() >= INT32_MAX) throw Error("profile stack table is full");
    const auto index = static_cast<std::uint32_t>(frames_.size());
    frames_.push_back(frame.index());
    prefixes_.push_back(p);
    index_.emplace(key, index);
    return StackHandle(index);
}

}  // namespace el2fx::fxprof

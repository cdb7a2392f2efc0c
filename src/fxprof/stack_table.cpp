#include "fxprof/stack_table.hpp"

#include "util/hash_mix.hpp"
#include "util/error.hpp"

namespace el2fx::fxprof {

StackHandle StackTable::add_distinct(std::optional<StackHandle> prefix, FrameHandle frame) {
    const std::uint32_t p = prefix ? prefix->index() : kRoot;
    if (prefix && p >= frames_.size()) throw Error("unknown prefix stack handle");
    if (frames_.size() >= INT32_MAX) throw Error("profile stack table is full");
    frames_.push_back(frame.index());
    prefixes_.push_back(p);
    return StackHandle(static_cast<std::uint32_t>(frames_.size() - 1));
}

StackHandle StackTable::handle_for(std::optional<StackHandle> prefix, FrameHandle frame) {
    const std::uint32_t p = prefix ? prefix->index() : kRoot;
    if (prefix && p >= frames_.size()) throw Error("unknown prefix stack handle");
    if (frames_.size() >= INT32_MAX) throw Error("profile stack table is full");
    const std::uint32_t f = frame.index();
    const auto next = static_cast<std::uint32_t>(frames_.size());
    auto [row, added] = index_.intern(util::mix64((std::uint64_t(p) << 32) | f), next,
                                      [&](std::uint32_t r) { return frames_[r] == f && prefixes_[r] == p; });
    if (added) {
        frames_.push_back(f);
        prefixes_.push_back(p);
    }
    return StackHandle(row);
}

}  // namespace el2fx::fxprof

#include "fxprof/frame_table.hpp"

#include "fxprof/hash_mix.hpp"
#include "util/error.hpp"

namespace el2fx::fxprof {

std::size_t FrameInfoHash::operator()(const FrameInfo& f) const noexcept {
    std::uint64_t h = mix64(f.func.index());
    h = hash_combine(h, f.category ? (std::uint64_t(f.category->category().index()) << 32 |
                                      f.category->index()) + 1
                                   : 0);
    h = hash_combine(h, f.line ? std::uint64_t(*f.line) + 1 : 0);
    h = hash_combine(h, f.column ? std::uint64_t(*f.column) + 1 : 0);
    h = hash_combine(h, f.lib ? std::uint64_t(f.lib->index()) + 1 : 0);
    h = hash_combine(h, f.address ? std::uint64_t(*f.address) + 1 : 0);
    return static_cast<std::size_t>(h);
}

FrameHandle FrameTable::append(const FrameInfo& f) {
    if (rows_.size() >= INT32_MAX) throw Error("profile frame table is full");
    if (f == FrameInfo{.func = f.func} && f.func.index() < kDetail) {
        rows_.push_back(f.func.index());
    } else {
        rows_.push_back(kDetail | static_cast<std::uint32_t>(details_.size()));
        details_.push_back(f);
    }
    return FrameHandle(static_cast<std::uint32_t>(rows_.size() - 1));
}

FrameHandle FrameTable::add_distinct(const FrameInfo& f) { return append(f); }

FrameHandle FrameTable::handle_for(const FrameInfo& f) {
    if (rows_.size() >= INT32_MAX) throw Error("profile frame table is full");
    const auto next = static_cast<std::uint32_t>(rows_.size());
    auto [r, added] = index_.intern(FrameInfoHash{}(f), next, [&](std::uint32_t i) { return row(i) == f; });
    return added ? append(f) : FrameHandle(r);
}

}  // namespace el2fx::fxprof

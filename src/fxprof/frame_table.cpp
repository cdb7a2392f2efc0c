#include "fxprof/frame_table.hpp"

#include "util/hash_mix.hpp"

namespace el2fx::fxprof {

std::size_t FrameRows::hash(const FrameInfo& f) noexcept {
    std::uint64_t h = util::mix64(f.func.index());
    h = util::hash_combine(
        h, f.category ? (std::uint64_t(f.category->category().index()) << 32 | f.category->index()) + 1 : 0);
    h = util::hash_combine(h, f.line ? std::uint64_t(*f.line) + 1 : 0);
    h = util::hash_combine(h, f.column ? std::uint64_t(*f.column) + 1 : 0);
    h = util::hash_combine(h, f.lib ? std::uint64_t(f.lib->index()) + 1 : 0);
    h = util::hash_combine(h, f.address ? std::uint64_t(*f.address) + 1 : 0);
    return static_cast<std::size_t>(h);
}

}  // namespace el2fx::fxprof

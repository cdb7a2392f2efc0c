#include "fxprof/func_table.hpp"

#include <type_traits>

#include "util/hash_mix.hpp"

namespace el2fx::fxprof {

namespace {
template <class T>
std::uint64_t opt_bits(const std::optional<T>& v) {
    if constexpr (std::is_integral_v<T>)
        return v ? std::uint64_t(*v) + 1 : 0;
    else
        return v ? std::uint64_t(v->index()) + 1 : 0;
}
}  // namespace

std::size_t FuncRows::hash(const FuncInfo& f) noexcept {
    std::uint64_t h = util::mix64(f.name.index());
    h = util::hash_combine(h, opt_bits(f.resource));
    h = util::hash_combine(h, opt_bits(f.source));
    h = util::hash_combine(h, opt_bits(f.line));
    h = util::hash_combine(h, opt_bits(f.column));
    h = util::hash_combine(h, (f.is_js ? 1u : 0u) | (f.relevant_for_js ? 2u : 0u));
    return static_cast<std::size_t>(h);
}

}  // namespace el2fx::fxprof

#include "fxprof/func_table.hpp"

#include "fxprof/hash_mix.hpp"
#include "util/error.hpp"

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

std::size_t FuncInfoHash::operator()(const FuncInfo& f) const noexcept {
    std::uint64_t h = mix64(f.name.index());
    h = hash_combine(h, opt_bits(f.resource));
    h = hash_combine(h, opt_bits(f.source));
    h = hash_combine(h, opt_bits(f.line));
    h = hash_combine(h, opt_bits(f.column));
    h = hash_combine(h, (f.is_js ? 1u : 0u) | (f.relevant_for_js ? 2u : 0u));
    return static_cast<std::size_t>(h);
}

FuncHandle FuncTable::append(const FuncInfo& f) {
    if (rows_.size() >= INT32_MAX) throw Error("profile func table is full");
    if (f == FuncInfo{.name = f.name} && f.name.index() < kDetail) {
        rows_.push_back(f.name.index());
    } else {
        rows_.push_back(kDetail | static_cast<std::uint32_t>(details_.size()));
        details_.push_back(f);
    }
    return FuncHandle(static_cast<std::uint32_t>(rows_.size() - 1));
}

FuncHandle FuncTable::add_distinct(const FuncInfo& f) { return append(f); }

FuncHandle FuncTable::handle_for(const FuncInfo& f) {
    if (rows_.size() >= INT32_MAX) throw Error("profile func table is full");
    const auto next = static_cast<std::uint32_t>(rows_.size());
    auto [r, added] = index_.intern(FuncInfoHash{}(f), next, [&](std::uint32_t i) { return row(i) == f; });
    return added ? append(f) : FuncHandle(r);
}

}  // namespace el2fx::fxprof

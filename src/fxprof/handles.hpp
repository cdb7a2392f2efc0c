// Small typed handles: a caller holds these instead of raw table indexes, and cannot pass a
// frame where a stack is expected. Handles are only meaningful for the Profile that made them.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <functional>

namespace el2fx::fxprof {

template <class Tag>
class Handle {
public:
    // Made by the Profile and its tables; callers get handles from handle_for_* / add_*.
    constexpr explicit Handle(std::uint32_t index) : index_(index) {}
    constexpr std::uint32_t index() const { return index_; }
    constexpr auto operator<=>(const Handle&) const = default;

private:
    std::uint32_t index_;
};

using ProcessHandle = Handle<struct ProcessTag>;
using ThreadHandle = Handle<struct ThreadTag>;
using StringHandle = Handle<struct StringTag>;
using CategoryHandle = Handle<struct CategoryTag>;
using ResourceHandle = Handle<struct ResourceTag>;
using SourceHandle = Handle<struct SourceTag>;
using LibHandle = Handle<struct LibTag>;
using FuncHandle = Handle<struct FuncTag>;
using FrameHandle = Handle<struct FrameTag>;
using StackHandle = Handle<struct StackTag>;
using MarkerSchemaHandle = Handle<struct MarkerSchemaTag>;
using MarkerHandle = Handle<struct MarkerTag>;  // index within its thread
using CounterHandle = Handle<struct CounterTag>;
using ExtraSectionHandle = Handle<struct ExtraSectionTag>;

// An optional handle in 4 bytes instead of 8, for tables with an entry per Haskell thread.
template <class H>
class CompactOptional {
public:
    explicit operator bool() const { return plus_one_ != 0; }
    H operator*() const { return H(plus_one_ - 1); }
    CompactOptional& operator=(H h) {
        plus_one_ = h.index() + 1;  // handles index tables below INT32_MAX rows
        return *this;
    }

private:
    std::uint32_t plus_one_ = 0;
};

// A category with one of its subcategories (0 is the category itself, "Other").
class SubcategoryHandle {
public:
    constexpr SubcategoryHandle(CategoryHandle category)  // NOLINT: a category is its subcategory 0
        : category_(category), index_(0) {}
    constexpr SubcategoryHandle(CategoryHandle category, std::uint32_t index) : category_(category), index_(index) {}
    constexpr CategoryHandle category() const { return category_; }
    constexpr std::uint32_t index() const { return index_; }
    constexpr auto operator<=>(const SubcategoryHandle&) const = default;

private:
    CategoryHandle category_;
    std::uint32_t index_;
};

}  // namespace el2fx::fxprof

template <class Tag>
struct std::hash<el2fx::fxprof::Handle<Tag>> {
    std::size_t operator()(el2fx::fxprof::Handle<Tag> h) const noexcept {
        return std::hash<std::uint32_t>{}(h.index());
    }
};

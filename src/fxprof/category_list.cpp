#include "fxprof/category_list.hpp"

#include "util/error.hpp"

namespace el2fx::fxprof {

namespace {
constexpr std::string_view kOther = "Other";
}

CategoryList::CategoryList() {
    categories_.push_back(Category{std::string(kOther), CategoryColor::grey, {std::string(kOther)}});
}

CategoryHandle CategoryList::handle_for(std::string_view name, CategoryColor color) {
    for (std::size_t i = 0; i < categories_.size(); ++i)
        if (categories_[i].name == name) return CategoryHandle(static_cast<std::uint32_t>(i));
    if (categories_.size() >= UINT16_MAX) throw Error("too many profile categories");
    categories_.push_back(Category{std::string(name), color, {std::string(kOther)}});
    return CategoryHandle(static_cast<std::uint32_t>(categories_.size() - 1));
}

SubcategoryHandle CategoryList::handle_for_subcategory(CategoryHandle category, std::string_view name) {
    if (category.index() >= categories_.size()) throw Error("unknown category handle");
    auto& subs = categories_[category.index()].subcategories;
    for (std::size_t i = 0; i < subs.size(); ++i)
        if (subs[i] == name) return SubcategoryHandle(category, static_cast<std::uint32_t>(i));
    subs.emplace_back(name);
    return SubcategoryHandle(category, static_cast<std::uint32_t>(subs.size() - 1));
}

}  // namespace el2fx::fxprof

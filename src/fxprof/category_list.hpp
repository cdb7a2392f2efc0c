// meta.categories: named, coloured categories with subcategories. Category 0 is always
// "Other" (grey), the profiler's default category.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "fxprof/format_v70.hpp"
#include "fxprof/handles.hpp"

namespace el2fx::fxprof {

using v70::CategoryColor;

struct Category {
    std::string name;
    CategoryColor color;
    std::vector<std::string> subcategories;  // [0] is "Other", the category itself
};

class CategoryList {
public:
    CategoryList();

    static constexpr CategoryHandle default_category() { return CategoryHandle(0); }

    // Interned by name; asking again with another colour keeps the first colour.
    CategoryHandle handle_for(std::string_view name, CategoryColor color);
    SubcategoryHandle handle_for_subcategory(CategoryHandle category, std::string_view name);

    const std::vector<Category>& categories() const { return categories_; }
    bool contains(SubcategoryHandle s) const {
        return s.category().index() < categories_.size() &&
               s.index() < categories_[s.category().index()].subcategories.size();
    }

private:
    std::vector<Category> categories_;
};

}  // namespace el2fx::fxprof

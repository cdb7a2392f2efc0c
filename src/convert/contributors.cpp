#include "convert/contributors.hpp"

namespace el2fx::convert {

std::vector<std::unique_ptr<ProfileContributor>> make_contributors(const ConvertOptions& /*options*/,
                                                                   Diagnostics& /*diagnostics*/) {
    std::vector<std::unique_ptr<ProfileContributor>> all;
    return all;
}

}  // namespace el2fx::convert

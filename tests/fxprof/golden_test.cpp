// Golden test: the small representative profile, compared as parsed JSON with
// golden/small_profile.json. EL2FX_UPDATE_GOLDEN=1 rewrites the golden file (pretty-printed).
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <fstream>

#include "fxprof_test_util.hpp"
#include "fxprof/validate.hpp"

using namespace el2fx::fxprof;
using namespace el2fx::fxprof::testing;

namespace {

const std::string kGoldenPath = std::string(EL2FX_FXPROF_GOLDEN_DIR) + "/small_profile.json";

std::string pretty(const rapidjson::Value& v) {
    rapidjson::StringBuffer buf;
    rapidjson::PrettyWriter<rapidjson::StringBuffer> w(buf);
    w.SetIndent(' ', 2);
    w.SetFormatOptions(rapidjson::kFormatSingleLineArray);
    v.Accept(w);
    return std::string(buf.GetString()) + "\n";
}

// The first differing path, for a readable failure.
std::string first_difference(const rapidjson::Value& a, const rapidjson::Value& b,
                             const std::string& path) {
    if (a.GetType() != b.GetType()) return path + ": type differs";
    if (a.IsObject()) {
        for (auto it = a.MemberBegin(); it != a.MemberEnd(); ++it) {
            const std::string p = path + "." + it->name.GetString();
            if (!b.HasMember(it->name)) return p + ": missing in golden";
            const std::string d = first_difference(it->value, b[it->name], p);
            if (!d.empty()) return d;
        }
        for (auto it = b.MemberBegin(); it != b.MemberEnd(); ++it)
            if (!a.HasMember(it->name)) return path + "." + it->name.GetString() + ": only in golden";
        return {};
    }
    if (a.IsArray()) {
        if (a.Size() != b.Size()) return path + ": array sizes differ";
        for (rapidjson::SizeType i = 0; i < a.Size(); ++i) {
            const std::string d = first_difference(a[i], b[i], path + "[" + std::to_string(i) + "]");
            if (!d.empty()) return d;
        }
        return {};
    }
    return a == b ? std::string() : path + ": " + to_text(a) + " != " + to_text(b);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(golden)

BOOST_AUTO_TEST_CASE(small_profile_matches_the_golden_file) {
    const std::string json = profile_to_json(make_small_profile());
    const auto problems = validate_profile(json);
    BOOST_TEST(problems.empty());
    const auto actual = parse_json(json);

    const char* update = std::getenv("EL2FX_UPDATE_GOLDEN");
    if (update && std::string(update) == "1") {
        std::ofstream(kGoldenPath, std::ios::binary) << pretty(actual);
        BOOST_TEST_MESSAGE("rewrote " << kGoldenPath);
    }
    const std::string golden_text = read_file(kGoldenPath);
    BOOST_REQUIRE_MESSAGE(!golden_text.empty(),
                          kGoldenPath << " is missing; run with EL2FX_UPDATE_GOLDEN=1");
    const auto golden = parse_json(golden_text);
    BOOST_TEST((actual == golden), "differs from " << kGoldenPath << ": "
                                                   << first_difference(actual, golden, "$")
                                                   << " (EL2FX_UPDATE_GOLDEN=1 regenerates it)");
    BOOST_TEST(validate_profile(golden_text).empty());
}

BOOST_AUTO_TEST_SUITE_END()

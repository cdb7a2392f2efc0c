// --sources on the profiled fixture: every cost centre with a location resolves to an embedded
// file (fixtures/src/profiled.hs, the program the eventlog comes from) and a line inside it; the
// source view's inputs (func source and line, frame line, the pseudo-library for /source/v1)
// are there with or without --sources; without it no text is.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <fstream>
#include <string>

#include "convert/converter.hpp"
#include "fxprof/profile_writer.hpp"
#include "util/rapidjson.hpp"
#include "check/profile_check.hpp"
#include "temp_file.hpp"
#include "run_process.hpp"
#include "util/error.hpp"

using namespace el2fx;
using el2fx::testing::env_dir;

namespace {

struct Converted {
    convert::ConversionReport report;
    std::string json;
    rapidjson::Document doc;
};

Converted convert_profiled(convert::ConvertOptions options) {
    Converted c;
    fxprof::Profile profile =
        convert::build_profile(env_dir("EL2FX_FIXTURES") + "/profiled.eventlog", options, c.report);
    c.json = fxprof::profile_to_json(profile);
    c.doc.Parse(c.json.data(), c.json.size());
    BOOST_REQUIRE(!c.doc.HasParseError());
    return c;
}

std::size_t line_count(const std::string& text) {
    return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) +
           (text.empty() || text.back() == '\n' ? 0 : 1);
}

const rapidjson::Value* extra_section(const rapidjson::Document& d, const std::string& label) {
    if (!d["meta"].HasMember("extra")) return nullptr;
    for (const auto& s : d["meta"]["extra"].GetArray())
        if (label == s["label"].GetString()) return &s;
    return nullptr;
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_located_cost_centre_resolves_to_an_embedded_file_and_a_line_in_it) {
    convert::ConvertOptions options;
    options.source_dirs = {env_dir("EL2FX_FIXTURES") + "/src"};
    Converted c = convert_profiled(options);
    const auto& shared = c.doc["shared"];
    const auto& strings = shared["stringArray"];
    const auto& sources = shared["sources"];
    const auto& funcs = shared["funcTable"];
    const auto& frames = shared["frameTable"];
    BOOST_REQUIRE(sources["length"].GetUint() >= 1u);

    std::size_t located = 0;
    for (rapidjson::SizeType f = 0; f < funcs["length"].GetUint(); ++f) {
        if (funcs["source"][f].IsNull()) continue;
        ++located;
        const unsigned src = funcs["source"][f].GetUint();
        const std::string name = strings[funcs["name"][f].GetUint()].GetString();
        const std::string file = strings[sources["filename"][src].GetUint()].GetString();
        BOOST_TEST_CONTEXT(name << " in " << file) {
            BOOST_TEST(file == "profiled.hs");  // as the eventlog names it: relative, never the directory's path
            BOOST_REQUIRE(sources["content"][src].IsString());
            const std::string text = sources["content"][src].GetString();
            BOOST_TEST(text == testing::slurp(env_dir("EL2FX_FIXTURES") + "/src/profiled.hs"));
            const unsigned line = funcs["lineNumber"][f].GetUint();
            BOOST_TEST(line >= 1u);
            BOOST_TEST(line <= line_count(text));
        }
    }
    BOOST_TEST(located >= 10u);  // -fprof-auto: every top-level binding, plus the manual SCC

    // Frames of located funcs: the func's line, and the pseudo-library with the source as address.
    std::size_t located_frames = 0;
    for (rapidjson::SizeType i = 0; i < frames["length"].GetUint(); ++i) {
        const unsigned f = frames["func"][i].GetUint();
        if (funcs["source"][f].IsNull()) {
            BOOST_TEST(frames["lib"][i].GetInt() == -1);
            BOOST_TEST(frames["address"][i].GetInt() == -1);
            continue;
        }
        ++located_frames;
        BOOST_TEST(frames["line"][i].GetUint() == funcs["lineNumber"][f].GetUint());
        BOOST_TEST(frames["lib"][i].GetInt() == 0);
        BOOST_TEST(frames["address"][i].GetUint() == funcs["source"][f].GetUint());
    }
    BOOST_TEST(located_frames >= located);
    BOOST_REQUIRE(c.doc["libs"].Size() == 1u);
    BOOST_TEST(std::string(c.doc["libs"][0]["debugName"].GetString()) == "ghc-source-locations");

    // Profile Info lists the file; the report says the same.
    BOOST_TEST(c.report.sources.embedded == std::vector<std::string>{"profiled.hs"});
    BOOST_TEST(c.report.sources.missing.empty());
    const rapidjson::Value* section = extra_section(c.doc, "Source files");
    BOOST_REQUIRE(section);
    bool listed = false;
    for (const auto& e : (*section)["entries"].GetArray())
        listed = listed || (std::string(e["label"].GetString()) == "profiled.hs" &&
                            std::string(e["value"].GetString()) == "embedded");
    BOOST_TEST(listed);
    BOOST_TEST(check::validate_profile(c.json).empty());
}

BOOST_AUTO_TEST_CASE(without_sources_no_text_is_in_the_profile_but_the_locations_are) {
    Converted c = convert_profiled({});
    const auto& sources = c.doc["shared"]["sources"];
    BOOST_REQUIRE(sources["length"].GetUint() >= 1u);
    for (const auto& content : sources["content"].GetArray()) BOOST_TEST(content.IsNull());
    BOOST_TEST(c.json.find("module Main (main) where") == std::string::npos);
    BOOST_TEST(!extra_section(c.doc, "Source files"));
    BOOST_TEST(c.doc["libs"].Size() == 1u);  // serve --sources can still give the text
    BOOST_TEST(check::validate_profile(c.json).empty());
}

BOOST_AUTO_TEST_CASE(files_not_found_or_refused_are_listed_with_the_reason) {
    testing::TempDir empty;
    convert::ConvertOptions options;
    options.source_dirs = {empty.path.string()};
    Converted c = convert_profiled(options);
    for (const auto& content : c.doc["shared"]["sources"]["content"].GetArray()) BOOST_TEST(content.IsNull());
    BOOST_REQUIRE(c.report.sources.missing.size() == 1u);
    BOOST_TEST(c.report.sources.missing[0].first == "profiled.hs");
    BOOST_TEST(c.report.sources.missing[0].second == "not found under the --sources directories");
    BOOST_TEST(extra_section(c.doc, "Source files"));
    BOOST_TEST(c.json.find(empty.path.string()) == std::string::npos);  // the directory's path stays out

    testing::TempDir latin1;
    std::ofstream(latin1.path / "profiled.hs", std::ios::binary) << "main = putStrLn \"caf\xe9\"\n";
    options.source_dirs = {latin1.path.string()};
    Converted l = convert_profiled(options);
    BOOST_REQUIRE(l.report.sources.missing.size() == 1u);
    BOOST_TEST(l.report.sources.missing[0].second == "not UTF-8");
}

BOOST_AUTO_TEST_CASE(a_directory_that_does_not_exist_fails_the_conversion) {
    convert::ConvertOptions options;
    options.source_dirs = {"/nonexistent/el2fx-sources"};
    convert::ConversionReport report;
    BOOST_CHECK_THROW(convert::build_profile(env_dir("EL2FX_FIXTURES") + "/profiled.eventlog", options, report),
                      el2fx::Error);
}

BOOST_AUTO_TEST_CASE(the_command_line_says_what_was_embedded_and_refuses_a_missing_directory) {
    const std::string log = env_dir("EL2FX_FIXTURES") + "/profiled.eventlog";
    auto r = testing::run_binary({"convert", log, "-o", "-", "--sources", env_dir("EL2FX_FIXTURES") + "/src"});
    BOOST_TEST(r.status == 0);
    BOOST_TEST(r.err.find("Embedded 1 source file") != std::string::npos);
    auto bad = testing::run_binary({"convert", log, "-o", "-", "--sources", "/nonexistent/el2fx-sources"});
    BOOST_TEST(bad.status != 0);
    BOOST_TEST(bad.err.find("--sources /nonexistent/el2fx-sources: no such directory") != std::string::npos);
    BOOST_TEST(std::count(bad.err.begin(), bad.err.end(), '\n') == 1);
}

// --redact-paths, string by string: hostile texts that must lose every directory, and texts
// that must stay as they are.
#include <boost/test/unit_test.hpp>

#include <string>
#include <utility>
#include <vector>

#include "redaction/path_redaction.hpp"

using el2fx::redaction::file_name;
using el2fx::redaction::reduce_paths;

BOOST_AUTO_TEST_SUITE(path_redaction)

// {text, what --redact-paths makes of it}
const std::vector<std::pair<std::string, std::string>> kReduced = {
    // The documented forms.
    {"/home/ann/src/Main.hs:12:3-20", "Main.hs:12:3-20"},
    {"opened /tmp/x/data.csv, then /var/log/y.log.", "opened data.csv, then y.log."},
    {"--out=/home/ann/out.txt", "--out=out.txt"},
    {"PATH=/usr/bin:/home/ann/.local/bin", "PATH=bin:bin"},
    {"(\"/a/b c\")", "(\"b c\")"},
    {"~/notes.txt and ~/", "notes.txt and ~/"},
    {"~ann/secret/notes.txt", "notes.txt"},
    {"C:\\Users\\ann\\prog.exe D:/x/y", "prog.exe y"},
    {"c:/Users/ann/f.txt", "f.txt"},
    {"\\\\server\\share\\ann\\f.txt", "f.txt"},
    {"\\Users\\ann\\f.txt", "f.txt"},
    {"/home/ann/dir/", "dir"},
    {"file:///home/ann/a.hs", "file://a.hs"},
    {"FILE://host/home/ann/a.hs", "FILE://a.hs"},
    {"file:/home/ann/a.hs", "file:a.hs"},
    // RTS flags and other options with their path glued on.
    {"-ol/home/ann/out.eventlog", "-olout.eventlog"},
    {"prog +RTS -l -ol/home/ann/out.eventlog -RTS", "prog +RTS -l -olout.eventlog -RTS"},
    {"-po/home/ann/prof/prog", "-poprog"},
    {"-S/home/ann/stats.txt", "-Sstats.txt"},
    {"-s/home/ann/stats.txt", "-sstats.txt"},
    {"-t/home/ann/stats.txt", "-tstats.txt"},
    {"-hi/home/ann/x", "-hix"},
    {"--output/home/ann/x.json", "--outputx.json"},
    {"-I/home/ann/include", "-Iinclude"},
    // Glued to characters that are no part of a word.
    {"x|/home/ann/f", "x|f"},
    {"a&/home/ann/f", "a&f"},
    {"u@/home/ann/f", "u@f"},
    {"$/home/ann/f", "$f"},
    {"*/home/ann/f", "*f"},
    {"!/home/ann/f", "!f"},
    {"#/home/ann/f", "#f"},
    {"+/home/ann/f", "+f"},
    {"?/home/ann/f", "?f"},
    {"%/home/ann/f", "%f"},
    {"^/home/ann/f", "^f"},
    {"</home/ann/f>", "<f>"},
    {"[/home/ann/f]", "[f]"},
    {"{/home/ann/f}", "{f}"},
    {"a\t/home/ann/f\nb", "a\tf\nb"},
    {"user@host:/home/ann/f", "user@host:f"},
    {"rsync ann@host:/home/ann/dir/ .", "rsync ann@host:dir ."},
    // Relative paths that climb out.
    {"../../home/ann/f", "f"},
    {"../x/y", "y"},
    {"../secret.txt", "secret.txt"},
    {"../..", ".."},
    {"src/../../../home/ann/f", "f"},
    // Whatever follows a path's end directly.
    {"/home/ann/a:b/secret/f", "a:f"},
    {"/home/ann/a)b/secret/f", "a)f"},
    {"/home/ann/a+b/secret/f", "f"},
    {"/home/ann/my|dir/f", "f"},
    // Percent-encoded, once or twice.
    {"%2Fhome%2Fann%2Ff", "f"},
    {"%2fhome%2fann%2ff", "f"},
    {"%252Fhome%252Fann%252Ff", "f"},
    {"x=%2Fhome%2Fann%2Ff&y=1", "x=f&y=1"},
    {"%2E%2E%2F%2E%2E%2Fhome%2Fann%2Ff", "f"},
    {"C%3A%5CUsers%5Cann%5Cf", "f"},
    {"/home/ann%20x/f", "ann x/f"},  // decoded: the space ends the path
    // Several in one text, and the first one in a list-like text.
    {"a=/x/y/1,b=/x/y/2;c=(/x/y/3)", "a=1,b=2;c=(3)"},
};

// Texts that hold no path of a machine.
const std::vector<std::string> kKept = {
    "src/Main.hs",
    "src/Main.hs:1:1",
    "src/a/b/Main.hs:12:3-20",
    "./prog",
    "https://example.org/a/b",
    "https://example.org/a/b?next=/home/x",  // part of the URL
    "http://127.0.0.1:3000/0011/prog.json.gz",
    "see https://example.org/a/b, then stop",
    "a/b",
    "1/2",
    "ratio 3/4 of I/O over TCP/IP",
    "2024/01/02",
    "x /= y",
    "a / b",
    "a // b",
    "/",
    "/usr",
    "-ol/out.eventlog",
    "-o/x",
    "~/",
    "~",
    "no path here",
    "",
    "100%",
    "50% done, %zz, %",
    "%2Fusr",
    "GHC.Base.map",
    "<built-in>",
    "Main.main (src/Main.hs:10:1-20)",
    "a-b/c",
    "x.y/z",
    "</div>",
};

BOOST_AUTO_TEST_CASE(hostile_texts_lose_their_directories) {
    for (const auto& [text, reduced] : kReduced) BOOST_TEST(reduce_paths(text) == reduced, "text: " << text);
}

BOOST_AUTO_TEST_CASE(texts_without_a_machines_path_stay) {
    for (const std::string& text : kKept) BOOST_TEST(reduce_paths(text) == text, "text: " << text);
}

// No directory name survives in any hostile text: checked by the names, not the layout.
BOOST_AUTO_TEST_CASE(no_directory_name_survives) {
    for (const auto& [text, reduced] : kReduced) {
        const std::string out = reduce_paths(text);
        for (const char* secret : {"home", "ann/", "secret/", "Users", "/x/", "share"})
            BOOST_TEST(out.find(secret) == std::string::npos, "text: " << text << " gave " << out);
    }
}

BOOST_AUTO_TEST_CASE(long_hostile_texts_take_linear_time) {
    // Each would take minutes if a position were looked at again for every later one.
    for (const std::string& unit :
         {std::string("/|"), std::string("-a/b|"), std::string("~a|"), std::string("/a|b"), std::string("a:/"),
          std::string("%2F"), std::string("../"), std::string("x/"), std::string("a/b|"), std::string("../..|"),
          std::string("-a/b,"), std::string("/a/b:c/d|"), std::string("-a//|"), std::string("a://")}) {
        std::string text;
        while (text.size() < 400'000) text += unit;
        BOOST_TEST(reduce_paths(text).size() <= text.size(), "unit " << unit);
    }
}

BOOST_AUTO_TEST_CASE(file_names) {
    BOOST_TEST(file_name("/usr/bin/prog") == "prog");
    BOOST_TEST(file_name("C:\\x\\prog.exe") == "prog.exe");
    BOOST_TEST(file_name("prog") == "prog");
}

BOOST_AUTO_TEST_SUITE_END()

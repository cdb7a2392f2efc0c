// Source files under --sources directories: hostile location names (escapes, links, hidden
// files, devices, huge or binary files) and the parsing of the locations that carry them.
#include <boost/test/unit_test.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <ostream>

#include "analysis/ghc_profiling/source_location.hpp"
#include "sources/source_roots.hpp"
#include "temp_file.hpp"
#include "util/error.hpp"

namespace el2fx::sources {
inline std::ostream& operator<<(std::ostream& os, Refusal r) { return os << describe(r); }
}  // namespace el2fx::sources

namespace fs = std::filesystem;
using el2fx::sources::Refusal;
using el2fx::sources::SourceRoots;
using el2fx::testing::TempDir;

namespace {

void write(const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
}

// root/ holds the program; outside/ is a neighbour that must never be read.
struct Tree {
    TempDir dir;
    fs::path root = dir.path / "root", outside = dir.path / "outside";
    Tree() {
        write(root / "Main.hs", "module Main where\nmain = pure ()\n");
        write(root / "src" / "Lib.hs", "module Lib where\n");
        write(root / "src" / "notes.txt", "not a source\n");
        write(root / ".git" / "Hidden.hs", "secret\n");
        write(outside / "Secret.hs", "secret\n");
        write(outside / "id_rsa", "-----BEGIN KEY-----\n");
    }
    SourceRoots roots() const { return SourceRoots({root.string()}); }
};

}  // namespace

BOOST_AUTO_TEST_CASE(relative_and_absolute_names_under_the_directory_are_read) {
    Tree t;
    SourceRoots roots = t.roots();
    auto text = roots.read("Main.hs");
    BOOST_TEST(text.refusal == Refusal::none);
    BOOST_TEST(text.content == "module Main where\nmain = pure ()\n");
    BOOST_TEST(roots.read("src/Lib.hs").refusal == Refusal::none);
    BOOST_TEST(roots.read("./src/../src/Lib.hs").refusal == Refusal::none);  // stays inside
    BOOST_TEST(roots.read((t.root / "src" / "Lib.hs").string()).refusal == Refusal::none);
    BOOST_TEST(roots.read("Missing.hs").refusal == Refusal::not_found);
}

BOOST_AUTO_TEST_CASE(names_that_escape_the_directory_are_refused) {
    Tree t;
    SourceRoots roots = t.roots();
    BOOST_TEST(roots.read("../outside/Secret.hs").refusal == Refusal::not_found);
    BOOST_TEST(roots.read("src/../../outside/Secret.hs").refusal == Refusal::not_found);
    BOOST_TEST(roots.read((t.outside / "Secret.hs").string()).refusal == Refusal::not_found);
    BOOST_TEST(roots.read((t.root / ".." / "outside" / "Secret.hs").string()).refusal == Refusal::not_found);
    BOOST_TEST(roots.read("/etc/passwd").refusal == Refusal::not_found);
    // A directory whose name starts like the root's is not under it.
    write(t.dir.path / "root2" / "X.hs", "x\n");
    BOOST_TEST(roots.read("../root2/X.hs").refusal == Refusal::not_found);
    BOOST_TEST(roots.read((t.dir.path / "root2" / "X.hs").string()).refusal == Refusal::not_found);
}

BOOST_AUTO_TEST_CASE(symbolic_links_count_where_they_lead) {
    Tree t;
    fs::create_symlink(t.outside / "Secret.hs", t.root / "Link.hs");
    fs::create_symlink(t.outside, t.root / "out");
    fs::create_symlink(t.root / "src" / "Lib.hs", t.root / "Inner.hs");
    SourceRoots roots = t.roots();
    BOOST_TEST(roots.read("Link.hs").refusal == Refusal::not_found);
    BOOST_TEST(roots.read("out/Secret.hs").refusal == Refusal::not_found);
    BOOST_TEST(roots.read("Inner.hs").refusal == Refusal::none);
    BOOST_TEST(roots.read("Inner.hs").content == "module Lib where\n");
    // The root itself may be a link: it is resolved once.
    fs::create_symlink(t.root, t.dir.path / "via");
    SourceRoots via({(t.dir.path / "via").string()});
    BOOST_TEST(via.read("Main.hs").refusal == Refusal::none);
    BOOST_TEST(via.read("Link.hs").refusal == Refusal::not_found);
}

BOOST_AUTO_TEST_CASE(only_visible_haskell_sources_are_given) {
    Tree t;
    SourceRoots roots = t.roots();
    BOOST_TEST(roots.read(".git/Hidden.hs").refusal == Refusal::not_source);
    BOOST_TEST(roots.read("src/notes.txt").refusal == Refusal::not_source);
    fs::create_symlink(t.outside / "id_rsa", t.root / "Key.hs");  // a source's name, a key's place
    BOOST_TEST(roots.read("Key.hs").refusal == Refusal::not_found);
    fs::create_symlink(t.root / "src" / "notes.txt", t.root / "Notes.hs");  // leads to a non-source
    BOOST_TEST(roots.read("Notes.hs").refusal == Refusal::not_source);
    BOOST_TEST(el2fx::sources::is_source_name("A.lhs"));
    BOOST_TEST(el2fx::sources::is_source_name("dir/Parser.y"));
    BOOST_TEST(el2fx::sources::is_source_name("B.hs-boot"));
    BOOST_TEST(!el2fx::sources::is_source_name(".hs"));
    BOOST_TEST(!el2fx::sources::is_source_name("x.hs.bak"));
}

BOOST_AUTO_TEST_CASE(directories_devices_and_fifos_are_not_read) {
    Tree t;
    fs::create_directories(t.root / "Dir.hs");
    BOOST_REQUIRE(::mkfifo((t.root / "Fifo.hs").c_str(), 0600) == 0);
    SourceRoots roots = t.roots();
    BOOST_TEST(roots.read("Dir.hs").refusal == Refusal::not_regular);
    BOOST_TEST(roots.read("Fifo.hs").refusal == Refusal::not_regular);  // and no hang
    SourceRoots dev({"/dev"});
    BOOST_TEST(dev.read("null").refusal == Refusal::not_source);
}

BOOST_AUTO_TEST_CASE(files_are_bounded_and_utf8) {
    Tree t;
    write(t.root / "Big.hs", std::string(5000, 'x'));
    write(t.root / "Latin1.hs", "-- caf\xe9\n");
    write(t.root / "Utf8.hs", "-- caf\xc3\xa9 \xe2\x86\x92\n");
    SourceRoots roots = t.roots();
    BOOST_TEST(roots.read("Big.hs", 4999).refusal == Refusal::too_large);
    BOOST_TEST(roots.read("Big.hs", 5000).refusal == Refusal::none);
    BOOST_TEST(roots.read("Latin1.hs").refusal == Refusal::not_utf8);
    BOOST_TEST(roots.read("Utf8.hs").refusal == Refusal::none);
}

BOOST_AUTO_TEST_CASE(hostile_names_are_refused_before_any_lookup) {
    Tree t;
    SourceRoots roots = t.roots();
    BOOST_TEST(roots.read("").refusal == Refusal::bad_name);
    BOOST_TEST(roots.read(std::string("Main.hs\0../../x", 16)).refusal == Refusal::bad_name);
    BOOST_TEST(roots.read("Main.hs\n").refusal == Refusal::bad_name);
    BOOST_TEST(roots.read("\x1b[31mMain.hs").refusal == Refusal::bad_name);
    BOOST_TEST(roots.read("M\xff.hs").refusal == Refusal::bad_name);
    BOOST_TEST(roots.read(std::string(5000, 'a') + ".hs").refusal == Refusal::bad_name);
    BOOST_TEST(roots.read(std::string(300, '/') + "Main.hs").refusal == Refusal::not_found);
}

BOOST_AUTO_TEST_CASE(several_directories_are_tried_in_order) {
    Tree t;
    write(t.dir.path / "second" / "Main.hs", "second\n");
    write(t.dir.path / "second" / "Only.hs", "only\n");
    SourceRoots roots({t.root.string(), (t.dir.path / "second").string(), t.root.string()});
    BOOST_TEST(roots.roots().size() == 2u);  // a repeated directory counts once
    BOOST_TEST(roots.read("Main.hs").content == "module Main where\nmain = pure ()\n");
    BOOST_TEST(roots.read("Only.hs").content == "only\n");
}

BOOST_AUTO_TEST_CASE(a_directory_that_is_not_one_is_an_error) {
    Tree t;
    BOOST_CHECK_THROW(SourceRoots({(t.dir.path / "nope").string()}), el2fx::Error);
    BOOST_CHECK_THROW(SourceRoots({(t.root / "Main.hs").string()}), el2fx::Error);
    BOOST_CHECK_THROW(SourceRoots({""}), el2fx::Error);
    BOOST_TEST(SourceRoots().empty());
}

// The eventlog's location strings are hostile too: whatever they hold, the parser gives a file
// name (which the lookup above then judges) and sane numbers, or nothing.
BOOST_AUTO_TEST_CASE(location_strings_parse_or_give_no_file) {
    using el2fx::profiling::parse_source_location;
    auto a = parse_source_location("src/Main.hs:37:1-20");
    BOOST_TEST(a.file == "src/Main.hs");
    BOOST_TEST(*a.line == 37u);
    BOOST_TEST(*a.column == 1u);
    auto b = parse_source_location("Main.hs:(12,1)-(14,20)");
    BOOST_TEST(b.file == "Main.hs");
    BOOST_TEST(*b.line == 12u);
    BOOST_TEST(*b.end_line == 14u);
    auto c = parse_source_location("../../etc/passwd:1:1");
    BOOST_TEST(c.file == "../../etc/passwd");  // parsed; refused by the lookup
    BOOST_TEST(parse_source_location("<built-in>").file.empty());
    BOOST_TEST(parse_source_location("<no location info>").file.empty());
    BOOST_TEST(parse_source_location(":1:2").file.empty());
    BOOST_TEST(parse_source_location("Main.hs:99999999999:1").file.empty());  // overflows
    BOOST_TEST(parse_source_location("Main.hs:-1:1").file.empty());
    BOOST_TEST(parse_source_location("Main.hs:1:").file.empty());
    BOOST_TEST(parse_source_location("Main.hs:(1,2)-(3,").file.empty());
    BOOST_TEST(parse_source_location(std::string("A.hs\0:1:1", 9)).file == std::string("A.hs\0", 5));
    BOOST_TEST(parse_source_location("C:\\src\\Main.hs:3:1-9").file == "C:\\src\\Main.hs");
}

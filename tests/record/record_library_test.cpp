// src/record without a GHC program: the RTS options, the command line, reading the RTS's
// answers, finding programs, the private directory, copying streams.
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <tuple>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

#include "record/private_dir.hpp"
#include "util/temp_files.hpp"
#include "record/program_probe.hpp"
#include "record/rts_flags.hpp"
#include "record/stream_capture.hpp"
#include "temp_file.hpp"
#include "util/error.hpp"

using namespace el2fx::record;
using el2fx::testing::slurp;
using el2fx::testing::TempDir;

BOOST_AUTO_TEST_SUITE(rts_options)

BOOST_AUTO_TEST_CASE(eventlog_into_the_fifo_and_nothing_else_by_default) {
    const std::vector<std::string> want = {"+RTS", "-l", "-ol/tmp/d/eventlog.fifo", "-RTS"};
    BOOST_TEST(rts_flags({}, false, "/tmp/d/eventlog.fifo") == want, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(heap_sparks_interval_and_verbatim_options) {
    RecordRequest request;
    request.heap = true;
    request.sparks = true;
    request.rts_interval_ns = 100'000'000;
    request.rts = "  -N2   -A64m ";
    const std::vector<std::string> plain = {"+RTS", "-lf", "-olfifo", "-hT", "-i0.1", "-N2", "-A64m", "-RTS"};
    BOOST_TEST(rts_flags(request, false, "fifo") == plain, boost::test_tools::per_element());
    // A profiled build profiles the heap by cost centre.
    BOOST_TEST(rts_flags(request, true, "fifo")[3] == "-h");
}

BOOST_AUTO_TEST_CASE(seconds_for_the_rts) {
    BOOST_TEST(rts_seconds(2'000'000'000) == "2");
    BOOST_TEST(rts_seconds(500'000) == "0.0005");
    BOOST_TEST(rts_seconds(1'250'000'000) == "1.25");
}

BOOST_AUTO_TEST_CASE(an_eventlog_file_of_the_users_own_is_refused) {
    BOOST_CHECK_THROW(check_user_rts_options({"a", "+RTS", "-olx.eventlog", "-RTS"}, nullptr), el2fx::Error);
    BOOST_CHECK_THROW(check_user_rts_options({}, "-N2 -ol/tmp/x"), el2fx::Error);
    // Outside +RTS … -RTS, or after --RTS, it is the program's own argument.
    BOOST_CHECK_NO_THROW(check_user_rts_options({"-olx", "+RTS", "-N2", "-RTS", "-oly"}, "-N2"));
    BOOST_CHECK_NO_THROW(check_user_rts_options({"--RTS", "+RTS", "-olx"}, nullptr));
}

BOOST_AUTO_TEST_CASE(command_line_quoted_as_a_shell_reads_it) {
    BOOST_TEST(shell_command_line({"./prog", "+RTS", "-l", "-RTS", "a b", "it's", ""}) ==
               "./prog +RTS -l -RTS 'a b' 'it'\\''s' ''");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(probe)

const char* const kInfo =
    " [(\"GHC RTS\", \"YES\")\n ,(\"GHC version\", \"9.0.2\")\n ,(\"RTS way\", \"rts_thr_l\")\n"
    " ,(\"Flag -with-rtsopts\", \"\")\n ]\n";

BOOST_AUTO_TEST_CASE(rts_info_gives_version_and_way) {
    const RtsInfo info = parse_rts_info(kInfo);
    BOOST_TEST(info.ghc_version == "9.0.2");
    BOOST_TEST(info.way == "rts_thr_l");
    BOOST_TEST(!info.profiled);
    BOOST_TEST(parse_rts_info("(\"GHC version\", \"9.0.2\")(\"RTS way\", \"rts_thr_p\")").profiled);
    BOOST_TEST(parse_rts_info("(\"RTS way\", \"rts_p_dyn\")").profiled);
    BOOST_TEST(!parse_rts_info("(\"RTS way\", \"rts_thr_debug_dyn\")").profiled);
}

// What GHC 9.0.2's RTS writes for each failure (seen with the fixture programs).
BOOST_AUTO_TEST_CASE(each_complaint_of_the_rts_becomes_one_line_that_says_what_to_do) {
    const RtsInfo ok = parse_rts_info(kInfo);
    BOOST_TEST(explain_rts_complaint("./p", "", 0, ok).empty());
    const std::string no_eventlog = explain_rts_complaint(
        "./p", "p: the flag -l requires the program to be built with -eventlog, -prof or -debug\n", 0,
        parse_rts_info("(\"GHC version\", \"9.0.2\")(\"RTS way\", \"rts_v\")"));
    BOOST_TEST(no_eventlog.find("without eventlog support") != std::string::npos);
    BOOST_TEST(no_eventlog.find("-eventlog") != std::string::npos);
    BOOST_TEST(no_eventlog.find("9.4") != std::string::npos);
    const std::string some =
        explain_rts_complaint("./p", "p: Most RTS options are disabled. Link with -rtsopts to enable them.\n", 1, {});
    BOOST_TEST(some.find("-rtsopts") != std::string::npos);
    BOOST_TEST(some.find("--heap") != std::string::npos);
    const std::string none =
        explain_rts_complaint("./p", "p: RTS options are disabled. Link with -rtsopts to enable them.\n", 1, {});
    BOOST_TEST(none.find("-with-rtsopts=-l") != std::string::npos);
    const std::string not_ghc = explain_rts_complaint("./p", "usage: p FILE\n", 64, {});
    BOOST_TEST(not_ghc.find("GHC program") != std::string::npos);
    const std::string rejected = explain_rts_complaint("./p", "p: bad value for -i\n", 0, ok);
    BOOST_TEST(rejected.find("rejects an option: bad value for -i") != std::string::npos);
    // GHCRTS with a program that takes only safe options: a warning, and it runs.
    BOOST_TEST(explain_rts_complaint("./p",
                                     "p: Warning: Ignoring GHCRTS variable as RTS options are disabled.\n"
                                     "         Link with -rtsopts to enable them.\n",
                                     0, ok)
                   .empty());
    for (const std::string& line : {no_eventlog, some, none, not_ghc, rejected})
        BOOST_TEST(line.find('\n') == std::string::npos);
}

BOOST_AUTO_TEST_CASE(programs_are_found_as_execvp_finds_them) {
    TempDir dir;
    const std::string script = (dir.path / "tool").string();
    { std::ofstream(script) << "#!/bin/sh\n"; }
    BOOST_CHECK_THROW(resolve_program(script), el2fx::Error);  // not executable yet
    ::chmod(script.c_str(), 0755);
    BOOST_TEST(resolve_program(script) == script);
    BOOST_CHECK_THROW(resolve_program((dir.path / "missing").string()), el2fx::Error);
    BOOST_CHECK_THROW(resolve_program(dir.path.string()), el2fx::Error);  // a directory
    BOOST_TEST(resolve_program("sh").find("/sh") != std::string::npos);
    BOOST_CHECK_THROW(resolve_program("el2fx-no-such-program-anywhere"), el2fx::Error);
    try {
        resolve_program(script + ".missing");
    } catch (const el2fx::Error& e) {
        BOOST_TEST(std::string(e.what()).find("no such program") != std::string::npos);
    }
}

BOOST_AUTO_TEST_CASE(a_ghc_program_is_told_by_its_runtime_strings) {
    TempDir dir;
    const std::string fake = (dir.path / "fake").string();
    // The needle across the 1 MiB chunk boundary is still found.
    { std::ofstream(fake, std::ios::binary) << std::string((1 << 20) - 3, 'x') << "GHC RTS" << std::string(10, 'y'); }
    BOOST_TEST(holds_ghc_runtime(fake));
    { std::ofstream(fake, std::ios::binary) << "ELF ... libHSrts_thr-ghc9.0.2.so ..."; }
    BOOST_TEST(holds_ghc_runtime(fake));
    BOOST_TEST(!holds_ghc_runtime("/bin/sh"));
    BOOST_TEST(!holds_ghc_runtime((dir.path / "missing").string()));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(private_directory)

BOOST_AUTO_TEST_CASE(mode_0700_in_tmpdir_and_removed_with_its_files) {
    TempDir tmp;
    const char* old = std::getenv("TMPDIR");
    const std::string saved = old ? old : "";
    ::setenv("TMPDIR", tmp.path.c_str(), 1);
    std::string path, fifo;
    {
        PrivateDir dir;
        path = dir.path();
        BOOST_TEST(path.rfind(tmp.path.string(), 0) == 0);
        struct stat st {};
        BOOST_REQUIRE(::stat(path.c_str(), &st) == 0);
        BOOST_TEST((st.st_mode & 0777) == 0700u);
        fifo = dir.file("eventlog.fifo");
        BOOST_REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
        { std::ofstream(dir.file("eventlog")) << "x"; }
    }
    BOOST_TEST(!std::filesystem::exists(path));
    {
        PrivateDir dir;
        path = dir.path();
        { std::ofstream(dir.file("eventlog")) << "x"; }
        el2fx::util::remove_registered_temp_files();  // what a signal handler does
        BOOST_TEST(!std::filesystem::exists(path));
    }
    if (old)
        ::setenv("TMPDIR", saved.c_str(), 1);
    else
        ::unsetenv("TMPDIR");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(capture)

BOOST_AUTO_TEST_CASE(a_pipe_is_copied_until_its_end) {
    TempDir dir;
    int p[2];
    BOOST_REQUIRE(::pipe(p) == 0);
    const std::string spool = (dir.path / "spool").string();
    const int fd = ::open(spool.c_str(), O_WRONLY | O_CREAT, 0600);
    std::thread writer([&] {
        for (int i = 0; i < 100; ++i) {
            std::string chunk(1000, static_cast<char>('a' + i % 26));
            BOOST_REQUIRE(::write(p[1], chunk.data(), chunk.size()) == 1000);
        }
        ::close(p[1]);
    });
    const CaptureResult r = capture_stream(
        p[0], fd, spool, [] { return false; }, 20);
    writer.join();
    ::close(p[0]);
    ::close(fd);
    BOOST_TEST(r.bytes == 100000u);
    BOOST_TEST(r.end_of_stream);
    BOOST_TEST(slurp(spool).size() == 100000u);
}

BOOST_AUTO_TEST_CASE(a_fifo_whose_writer_never_comes_does_not_hang) {
    TempDir dir;
    const std::string fifo = (dir.path / "f").string();
    BOOST_REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    const int in = open_fifo_for_reading(fifo);  // returns at once
    const std::string spool = (dir.path / "spool").string();
    const int fd = ::open(spool.c_str(), O_WRONLY | O_CREAT, 0600);
    int asked = 0;
    const CaptureResult r = capture_stream(
        in, fd, spool, [&] { return ++asked >= 3; }, 10);
    BOOST_TEST(r.bytes == 0u);
    BOOST_TEST(!r.end_of_stream);
    BOOST_TEST(asked == 3);
    // A writer that comes, writes and goes ends the stream.
    std::thread writer([&] {
        const int w = ::open(fifo.c_str(), O_WRONLY);
        BOOST_REQUIRE(::write(w, "hdrb-and-more", 13) == 13);
        ::close(w);
    });
    const CaptureResult r2 = capture_stream(
        in, fd, spool, [] { return false; }, 10);
    writer.join();
    ::close(in);
    ::close(fd);
    BOOST_TEST(r2.bytes == 13u);
    BOOST_TEST(r2.end_of_stream);
}

BOOST_AUTO_TEST_CASE(bytes_before_the_header_are_left_out_when_asked) {
    TempDir dir;
    const std::string spool = (dir.path / "spool").string();
    for (const auto& [input, want, skipped] : std::vector<std::tuple<std::string, std::string, std::size_t>>{
             {std::string(24, '\x12') + "hdrb rest", "hdrb rest", 24},  // GHC 9.0's restart
             {"hdrb whole", "hdrb whole", 0},
             {std::string(100, 'z') + "hdrb", std::string(100, 'z') + "hdrb", 0},  // too far: kept whole
             {"short", "short", 0},
         }) {
        int p[2];
        BOOST_REQUIRE(::pipe(p) == 0);
        BOOST_REQUIRE(::write(p[1], input.data(), input.size()) == static_cast<ssize_t>(input.size()));
        ::close(p[1]);
        const int fd = ::open(spool.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        const CaptureResult r = capture_stream(
            p[0], fd, spool, [] { return false; }, 10, true);
        ::close(p[0]);
        ::close(fd);
        BOOST_TEST(slurp(spool) == want);
        BOOST_TEST(r.skipped == skipped);
        BOOST_TEST(r.bytes == input.size());
    }
}

BOOST_AUTO_TEST_CASE(socket_errors_say_what_to_do) {
    TempDir dir;
    try {
        connect_unix_socket((dir.path / "none.sock").string());
        BOOST_FAIL("connected to nothing");
    } catch (const el2fx::Error& e) {
        BOOST_TEST(std::string(e.what()).find("no such socket") != std::string::npos);
    }
    BOOST_CHECK_THROW(connect_unix_socket("/" + std::string(200, 'a')), el2fx::Error);
}

BOOST_AUTO_TEST_SUITE_END()

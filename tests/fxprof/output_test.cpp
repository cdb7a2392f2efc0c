// Output files: temp file + rename, nothing left behind on failure, "-" is stdout; devices
// and FIFOs written in place, symbolic links followed, what cannot be written refused.
#include <boost/test/unit_test.hpp>

#include <csignal>
#include <cstring>
#include <sys/resource.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <thread>
#include <unistd.h>

#include "check/profile_check.hpp"
#include "fxprof_test_util.hpp"
#include "fxprof/gzip.hpp"
#include "fxprof/output_file.hpp"
#include "util/temp_files.hpp"
#include "util/error.hpp"

using namespace el2fx::fxprof;
using namespace el2fx::fxprof::testing;
using el2fx::Error;
using el2fx::util::remove_registered_temp_files;
using el2fx::check::validate_profile_file;

namespace {

// Limits the size of files this process writes; writing past it fails with EFBIG (SIGXFSZ is
// ignored meanwhile). This is a real write error on the temporary file, even for root.
class FileSizeLimit {
public:
    explicit FileSizeLimit(rlim_t bytes) {
        old_handler_ = std::signal(SIGXFSZ, SIG_IGN);
        ::getrlimit(RLIMIT_FSIZE, &old_);
        rlimit lim = old_;
        lim.rlim_cur = bytes;
        BOOST_REQUIRE(::setrlimit(RLIMIT_FSIZE, &lim) == 0);
    }
    ~FileSizeLimit() {
        ::setrlimit(RLIMIT_FSIZE, &old_);
        std::signal(SIGXFSZ, old_handler_);
    }

private:
    rlimit old_{};
    void (*old_handler_)(int) = nullptr;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(output_file)

BOOST_AUTO_TEST_CASE(writes_a_complete_file_and_no_temporary) {
    ScratchDir dir;
    const std::string path = dir.file("out.json.gz");
    const Profile p = make_small_profile();
    const WriteStats stats = write_profile_gz(p, path);
    BOOST_TEST(dir.entries() == std::vector<std::string>{"out.json.gz"}, boost::test_tools::per_element());
    const std::string json = gunzip(read_file(path));
    BOOST_TEST(json.size() == stats.json_bytes);
    BOOST_TEST((parse_json(json) == parse_json(profile_to_json(p))));
    BOOST_TEST(validate_profile_file(path).empty());

    write_profile_json_file(p, dir.file("out.json"));
    BOOST_TEST(read_file(dir.file("out.json")) == profile_to_json(p));
}

BOOST_AUTO_TEST_CASE(relative_path_in_the_current_directory) {
    ScratchDir dir;
    char cwd[4096];
    BOOST_REQUIRE(::getcwd(cwd, sizeof cwd) != nullptr);
    BOOST_REQUIRE(::chdir(dir.path().c_str()) == 0);
    BOOST_CHECK_NO_THROW(write_profile_gz(make_small_profile(), "rel.json.gz"));
    BOOST_REQUIRE(::chdir(cwd) == 0);
    BOOST_TEST(dir.entries() == std::vector<std::string>{"rel.json.gz"}, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(replaces_an_existing_file) {
    ScratchDir dir;
    const std::string path = dir.file("p.json");
    write_profile_json_file(Profile("first"), path);
    write_profile_json_file(Profile("second"), path);
    BOOST_TEST(std::string(at(at(parse_json(read_file(path)), "meta"), "product").GetString()) == "second");
    BOOST_TEST(dir.entries().size() == 1u);
}

BOOST_AUTO_TEST_CASE(missing_directory_is_an_error_naming_the_file) {
    ScratchDir dir;
    const std::string path = dir.file("no/such/dir/out.json.gz");
    try {
        write_profile_gz(make_small_profile(), path);
        BOOST_FAIL("no error");
    } catch (const Error& e) {
        BOOST_TEST(e.context().file == path);
        BOOST_TEST(std::string(e.what()).find("No such file") != std::string::npos);
    }
    BOOST_TEST(dir.entries().empty());
}

BOOST_AUTO_TEST_CASE(a_write_error_leaves_nothing_and_keeps_the_old_file) {
    ScratchDir dir;
    const std::string path = dir.file("out.json.gz");
    write_profile_json_file(Profile("old"), path);
    const std::string old = read_file(path);

    Profile big("big");
    const ProcessHandle proc = big.add_process("p", "1", ms(0));
    const ThreadHandle t = big.add_thread(proc, "t", 1, ms(0), true);
    for (int i = 0; i < 100000; ++i)
        big.add_sample(t, Timestamp::from_nanos(i * 7919), std::nullopt, CpuDelta::from_nanos(i));
    {
        FileSizeLimit limit(4096);
        BOOST_CHECK_THROW(write_profile_json_file(big, path), Error);
        BOOST_CHECK_THROW(write_profile_gz(big, path), Error);
    }
    BOOST_TEST(dir.entries() == std::vector<std::string>{"out.json.gz"}, boost::test_tools::per_element());
    BOOST_TEST(read_file(path) == old);
}

BOOST_AUTO_TEST_CASE(an_error_while_building_the_json_leaves_nothing) {
    ScratchDir dir;
    Profile p("broken");
    const ProcessHandle lonely = p.add_process("lonely", "9", ms(0));
    p.add_counter(lonely, "c", "Memory", "", CounterDisplay::memory("c"));  // no thread
    BOOST_CHECK_THROW(write_profile_gz(p, dir.file("x.json.gz")), Error);
    BOOST_TEST(dir.entries().empty());
}

BOOST_AUTO_TEST_CASE(a_directory_as_destination_is_an_error) {
    ScratchDir dir;
    BOOST_REQUIRE(::mkdir(dir.file("sub").c_str(), 0755) == 0);
    BOOST_CHECK_THROW(write_profile_gz(make_small_profile(), dir.file("sub")), Error);
    BOOST_CHECK_THROW(write_profile_gz(make_small_profile(), dir.file("sub/")), Error);
    BOOST_TEST(dir.entries() == std::vector<std::string>{"sub"}, boost::test_tools::per_element());
    ::rmdir(dir.file("sub").c_str());
}

BOOST_AUTO_TEST_CASE(uncommitted_output_file_is_removed) {
    ScratchDir dir;
    {
        OutputFile out(dir.file("a.json"));
        out.sink().write("{}", 2);
        BOOST_TEST(dir.entries().size() == 1u);  // the temporary file, hidden
        BOOST_TEST(dir.entries()[0].front() == '.');
    }
    BOOST_TEST(dir.entries().empty());
}

BOOST_AUTO_TEST_CASE(new_files_follow_the_umask) {
    ScratchDir dir;
    const mode_t old = ::umask(022);
    write_profile_json_file(Profile("m"), dir.file("m.json"));
    ::umask(old);
    struct stat st {};
    BOOST_REQUIRE(::stat(dir.file("m.json").c_str(), &st) == 0);
    BOOST_TEST((st.st_mode & 0777) == 0644u);
}

BOOST_AUTO_TEST_CASE(a_missing_directory_is_named_with_one_colon) {
    try {
        OutputFile out("/nonexistent-el2fx-dir/x.json.gz");
        BOOST_FAIL("no error");
    } catch (const Error& e) {
        const std::string what = e.what();
        BOOST_TEST(what.rfind("/nonexistent-el2fx-dir/x.json.gz: cannot create", 0) == 0u, what);
        BOOST_TEST(what.find("::") == std::string::npos, what);
    }
}

BOOST_AUTO_TEST_SUITE_END()

// What is at the output path decides how it is written (as root, `-o /dev/null` once replaced
// the system's /dev/null with a regular file).
BOOST_AUTO_TEST_SUITE(output_targets)

namespace {
mode_t kind_at(const std::string& path) {
    struct stat st {};
    BOOST_REQUIRE(::lstat(path.c_str(), &st) == 0);
    return st.st_mode & S_IFMT;
}
}  // namespace

BOOST_AUTO_TEST_CASE(a_symbolic_link_stays_and_its_target_is_replaced) {
    ScratchDir dir;
    write_profile_json_file(Profile("old"), dir.file("real.json"));
    BOOST_REQUIRE(::symlink("real.json", dir.file("link.json").c_str()) == 0);
    {
        OutputFile out(dir.file("link.json"));
        BOOST_TEST(out.target() == dir.file("real.json"));
        BOOST_TEST((out.kind() == OutputFile::Kind::replaced));
    }
    write_profile_json_file(Profile("new"), dir.file("link.json"));
    BOOST_TEST(kind_at(dir.file("link.json")) == S_IFLNK);
    BOOST_TEST(std::string(at(at(parse_json(read_file(dir.file("real.json"))), "meta"), "product").GetString()) ==
               "new");
    BOOST_TEST(dir.entries() == (std::vector<std::string>{"link.json", "real.json"}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_chain_of_links_and_a_dangling_link_are_followed) {
    ScratchDir dir;
    BOOST_REQUIRE(::mkdir(dir.file("sub").c_str(), 0755) == 0);
    BOOST_REQUIRE(::symlink("sub/hop.json", dir.file("first.json").c_str()) == 0);
    BOOST_REQUIRE(::symlink(dir.file("end.json").c_str(), dir.file("sub/hop.json").c_str()) == 0);  // absolute
    write_profile_json_file(Profile("via links"), dir.file("first.json"));
    BOOST_TEST(kind_at(dir.file("first.json")) == S_IFLNK);
    BOOST_TEST(kind_at(dir.file("sub/hop.json")) == S_IFLNK);
    BOOST_TEST(kind_at(dir.file("end.json")) == S_IFREG);  // created where the chain ends
    BOOST_TEST(read_file(dir.file("end.json")) == profile_to_json(Profile("via links")));
    ::unlink(dir.file("sub/hop.json").c_str());
    ::rmdir(dir.file("sub").c_str());
}

BOOST_AUTO_TEST_CASE(a_loop_of_links_is_an_error_naming_the_path) {
    ScratchDir dir;
    BOOST_REQUIRE(::symlink("b", dir.file("a").c_str()) == 0);
    BOOST_REQUIRE(::symlink("a", dir.file("b").c_str()) == 0);
    try {
        OutputFile out(dir.file("a"));
        BOOST_FAIL("no error");
    } catch (const Error& e) {
        BOOST_TEST(e.context().file == dir.file("a"));
    }
    BOOST_TEST(dir.entries() == (std::vector<std::string>{"a", "b"}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_fifo_is_written_into_and_stays_a_fifo) {
    ScratchDir dir;
    const std::string fifo = dir.file("out.fifo");
    BOOST_REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    std::string received;
    std::thread reader([&] {
        const int fd = ::open(fifo.c_str(), O_RDONLY);
        if (fd < 0) return;
        char buf[4096];
        ssize_t n;
        while ((n = ::read(fd, buf, sizeof buf)) > 0) received.append(buf, static_cast<std::size_t>(n));
        ::close(fd);
    });
    const Profile p = make_small_profile();
    BOOST_CHECK_NO_THROW(write_profile_gz(p, fifo));
    reader.join();
    BOOST_TEST(gunzip(received) == profile_to_json(p));
    BOOST_TEST(kind_at(fifo) == S_IFIFO);
    BOOST_TEST(dir.entries() == std::vector<std::string>{"out.fifo"},
               boost::test_tools::per_element());  // no temporary
}

BOOST_AUTO_TEST_CASE(dev_null_stays_a_character_device) {
    struct stat before {};
    BOOST_REQUIRE(::stat("/dev/null", &before) == 0);
    BOOST_REQUIRE(S_ISCHR(before.st_mode));
    {
        OutputFile out("/dev/null");
        BOOST_TEST((out.kind() == OutputFile::Kind::direct));
        BOOST_TEST(out.temp_path().empty());
    }
    BOOST_CHECK_NO_THROW(write_profile_gz(make_small_profile(), "/dev/null"));
    struct stat after {};
    BOOST_REQUIRE(::stat("/dev/null", &after) == 0);
    BOOST_TEST(S_ISCHR(after.st_mode));
    BOOST_TEST(after.st_rdev == before.st_rdev);
    BOOST_TEST(after.st_ino == before.st_ino);
}

BOOST_AUTO_TEST_CASE(a_link_to_a_device_writes_into_the_device) {
    ScratchDir dir;
    BOOST_REQUIRE(::symlink("/dev/null", dir.file("sink").c_str()) == 0);
    BOOST_CHECK_NO_THROW(write_profile_gz(make_small_profile(), dir.file("sink")));
    BOOST_TEST(kind_at(dir.file("sink")) == S_IFLNK);
    BOOST_TEST(kind_at("/dev/null") == S_IFCHR);
    BOOST_TEST(dir.entries() == std::vector<std::string>{"sink"}, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_directory_or_a_socket_is_refused_with_its_name) {
    ScratchDir dir;
    BOOST_REQUIRE(::mkdir(dir.file("sub").c_str(), 0755) == 0);
    BOOST_REQUIRE(::symlink("sub", dir.file("to-sub").c_str()) == 0);
    const int sock = ::socket(AF_UNIX, SOCK_STREAM, 0);
    BOOST_REQUIRE(sock >= 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    const std::string sock_path = dir.file("sock");
    BOOST_REQUIRE(sock_path.size() < sizeof address.sun_path);
    std::memcpy(address.sun_path, sock_path.c_str(), sock_path.size() + 1);
    BOOST_REQUIRE(::bind(sock, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
    for (const char* name : {"sub", "to-sub", "sock"}) {
        try {
            OutputFile out(dir.file(name));
            BOOST_ERROR("no error for " << name);
        } catch (const Error& e) {
            BOOST_TEST(e.context().file == dir.file(name));
            BOOST_TEST(
                std::string(e.what()).find(name == std::string("sock") ? "socket" : "directory") != std::string::npos,
                e.what());
        }
    }
    ::close(sock);
    BOOST_TEST(kind_at(dir.file("sock")) == S_IFSOCK);
    BOOST_TEST(dir.entries() == (std::vector<std::string>{"sock", "sub", "to-sub"}), boost::test_tools::per_element());
    ::rmdir(dir.file("sub").c_str());
}

BOOST_AUTO_TEST_CASE(the_temporary_file_is_registered_for_removal_on_a_signal) {
    ScratchDir dir;
    OutputFile out(dir.file("a.json"));
    out.sink().write("{", 1);
    BOOST_REQUIRE(dir.entries().size() == 1u);
    remove_registered_temp_files();  // what the CLI's signal handler does
    BOOST_TEST(dir.entries().empty());
}

BOOST_AUTO_TEST_CASE(a_committed_file_is_no_longer_registered) {
    ScratchDir dir;
    {
        OutputFile out(dir.file("a.json"));
        out.sink().write("{}", 2);
        out.commit();
    }
    remove_registered_temp_files();
    BOOST_TEST(dir.entries() == std::vector<std::string>{"a.json"}, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(output_stdout)

BOOST_AUTO_TEST_CASE(dash_writes_to_standard_output_without_a_temporary) {
    ScratchDir dir;
    const std::string captured = dir.file("stdout.gz");
    std::fflush(stdout);
    const int saved = ::dup(STDOUT_FILENO);
    BOOST_REQUIRE(saved >= 0);
    const int fd = ::open(captured.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    BOOST_REQUIRE(fd >= 0);
    ::dup2(fd, STDOUT_FILENO);
    ::close(fd);
    const Profile p = make_small_profile();
    bool ok = true;
    try {
        write_profile_gz(p, "-");
    } catch (...) {
        ok = false;
    }
    ::dup2(saved, STDOUT_FILENO);
    ::close(saved);
    BOOST_TEST(ok);
    BOOST_TEST(gunzip(read_file(captured)) == profile_to_json(p));
    BOOST_TEST(dir.entries() == std::vector<std::string>{"stdout.gz"}, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()

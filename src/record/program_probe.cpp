#include "record/program_probe.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <poll.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/error.hpp"

extern char** environ;

namespace el2fx::record {
namespace {

constexpr int kProbeSeconds = 20;

bool executable_file(const std::string& path, int& error) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        error = errno;
        return false;
    }
    if (S_ISDIR(st.st_mode)) {
        error = EISDIR;
        return false;
    }
    if (::access(path.c_str(), X_OK) != 0) {
        error = EACCES;
        return false;
    }
    return true;
}

std::string rebuild_hint() { return "ghc -eventlog -rtsopts (cabal: ghc-options: -eventlog -rtsopts)"; }

std::string first_line(const std::string& text) {
    std::size_t end = text.find('\n');
    return text.substr(0, end);
}

}  // namespace

std::string resolve_program(const std::string& name) {
    if (name.empty()) throw Error("the program's name is empty");
    int error = 0;
    if (name.find('/') != std::string::npos) {
        if (executable_file(name, error)) return name;
        if (error == ENOENT || error == ENOTDIR)
            throw Error("no such program: check the path, or build it first", {name, std::nullopt, {}});
        if (error == EISDIR) throw Error("is a directory, not a program", {name, std::nullopt, {}});
        if (error == EACCES)
            throw Error("not executable: make it so (chmod +x), or give the built program", {name, std::nullopt, {}});
        throw Error(std::string("cannot run it: ") + std::strerror(error), {name, std::nullopt, {}});
    }
    const char* path_env = std::getenv("PATH");
    const std::string path = path_env ? path_env : "/usr/local/bin:/usr/bin:/bin";
    bool denied = false;
    std::size_t start = 0;
    for (;;) {
        std::size_t colon = path.find(':', start);
        std::string dir = path.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
        std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + name;
        if (executable_file(candidate, error)) return candidate;
        if (error == EACCES) denied = true;
        if (colon == std::string::npos) break;
        start = colon + 1;
    }
    if (denied)
        throw Error("not executable: make it so (chmod +x), or give the built program's path",
                    {name, std::nullopt, {}});
    throw Error("no such program in PATH: give its path (./" + name + "), or build it first", {name, std::nullopt, {}});
}

bool holds_ghc_runtime(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    static const std::string kNeedles[] = {"GHC RTS", "libHSrts"};
    constexpr std::size_t kChunk = 1 << 20, kOverlap = 16;
    std::string window;
    std::string chunk(kChunk, '\0');
    while (in) {
        in.read(chunk.data(), static_cast<std::streamsize>(kChunk));
        const std::size_t got = static_cast<std::size_t>(in.gcount());
        if (got == 0) break;
        window.append(chunk.data(), got);
        for (const std::string& needle : kNeedles)
            if (window.find(needle) != std::string::npos) return true;
        if (window.size() > kOverlap) window.erase(0, window.size() - kOverlap);
    }
    return false;
}

RtsInfo parse_rts_info(const std::string& info) {
    RtsInfo result;
    auto field = [&](const std::string& key) -> std::string {
        const std::string pattern = "(\"" + key + "\", \"";
        std::size_t at = info.find(pattern);
        if (at == std::string::npos) return {};
        at += pattern.size();
        std::size_t end = info.find('"', at);
        return end == std::string::npos ? std::string() : info.substr(at, end - at);
    };
    result.ghc_version = field("GHC version");
    result.way = field("RTS way");
    // rts_p, rts_thr_p, rts_thr_debug_p, rts_p_dyn: a "p" among the way's parts.
    std::string way = "_" + result.way + "_";
    result.profiled = way.find("_p_") != std::string::npos;
    return result;
}

std::string explain_rts_complaint(const std::string& program, const std::string& all_stderr, int status,
                                  const RtsInfo& info) {
    // Warnings are not complaints: "prog: Warning: Ignoring GHCRTS variable as RTS options are
    // disabled." with its indented continuation line (GHCRTS set, -rtsopts=some) runs as usual.
    std::string stderr_text;
    std::size_t start = 0;
    while (start < all_stderr.size()) {
        std::size_t end = all_stderr.find('\n', start);
        if (end == std::string::npos) end = all_stderr.size();
        const std::string line = all_stderr.substr(start, end - start);
        start = end + 1;
        if (line.empty() || line.find("Warning: ") != std::string::npos || line[0] == ' ' || line[0] == '\t') continue;
        stderr_text += line + "\n";
    }
    if (stderr_text.find("Most RTS options are disabled") != std::string::npos)  // -rtsopts=some, the default
        return program +
               " does not accept the RTS options that --heap, --interval-rts or --rts ask for (it was "
               "linked without -rtsopts): rebuild it with `ghc -rtsopts` (cabal: ghc-options: -rtsopts), "
               "or record without those options";
    if (stderr_text.find("RTS options are disabled") != std::string::npos)  // -rtsopts=none
        return program +
               " does not accept RTS options (it was linked with -rtsopts=none): rebuild it with "
               "`ghc -rtsopts` (cabal: ghc-options: -rtsopts), or link it with -with-rtsopts=-l and "
               "convert the .eventlog file it writes";
    if (stderr_text.find("requires the program to be built with -eventlog") != std::string::npos)
        return program + " was built without eventlog support" +
               (info.way.empty() ? std::string() : " (RTS way " + info.way + ")") +
               ": GHC before 9.4 needs -eventlog when linking: rebuild it with " + rebuild_hint();
    if (info.way.empty() || info.ghc_version.empty()) {
        std::string why =
            status == 0 ? "it printed no RTS information" : "it exited with status " + std::to_string(status);
        return program + " did not answer +RTS --info as a GHC program does (" + why +
               "): record runs Haskell programs built by GHC";
    }
    if (!stderr_text.empty()) {
        std::string line = first_line(stderr_text);
        // The RTS prefixes its complaints with the program's name.
        const std::size_t colon = line.find(": ");
        if (colon != std::string::npos && colon < 200) line = line.substr(colon + 2);
        return "the RTS of " + program + " rejects an option: " + line + " (check --rts and --interval-rts)";
    }
    return {};
}

RtsInfo probe_rts(const std::string& path, const std::string& argv0, const std::vector<std::string>& rts_flags) {
    std::vector<std::string> args = {argv0};
    args.insert(args.end(), rts_flags.begin(), rts_flags.end());
    // --info last: the RTS reads every option before it (complaining on standard error), then
    // prints the information and exits with status 0 before running anything.
    if (!args.empty() && args.back() == "-RTS")
        args.insert(args.end() - 1, "--info");
    else
        args.insert(args.end(), {"+RTS", "--info", "-RTS"});
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);

    int out[2], err[2];
    if (::pipe2(out, O_CLOEXEC) != 0) throw Error(std::string("pipe: ") + std::strerror(errno));
    if (::pipe2(err, O_CLOEXEC) != 0) {
        ::close(out[0]);
        ::close(out[1]);
        throw Error(std::string("pipe: ") + std::strerror(errno));
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_adddup2(&actions, err[1], 2);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &all);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    pid_t pid = -1;
    const int rc = ::posix_spawn(&pid, path.c_str(), &actions, &attr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    ::close(out[1]);
    ::close(err[1]);
    if (rc != 0) {
        ::close(out[0]);
        ::close(err[0]);
        throw Error(std::string("cannot run it: ") + std::strerror(rc), {argv0, std::nullopt, {}});
    }
    std::string text[2];
    bool open[2] = {true, true};
    const int fds[2] = {out[0], err[0]};
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(kProbeSeconds);
    bool timed_out = false;
    char buf[4096];
    while (open[0] || open[1]) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            timed_out = true;
            break;
        }
        pollfd p[2];
        nfds_t n = 0;
        int which[2];
        for (int i = 0; i < 2; ++i)
            if (open[i]) {
                which[n] = i;
                p[n++] = {fds[i], POLLIN, 0};
            }
        if (::poll(p, n, static_cast<int>(left.count())) < 0 && errno != EINTR) break;
        for (nfds_t k = 0; k < n; ++k) {
            if (!p[k].revents) continue;
            const ssize_t r = ::read(p[k].fd, buf, sizeof buf);
            if (r > 0 && text[which[k]].size() < (1 << 20))
                text[which[k]].append(buf, static_cast<std::size_t>(r));
            else if (r == 0 || (r < 0 && errno != EINTR))
                open[which[k]] = false;
        }
    }
    ::close(out[0]);
    ::close(err[0]);
    if (timed_out) ::kill(pid, SIGKILL);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    if (timed_out)
        throw Error(argv0 + " did not answer +RTS --info within " + std::to_string(kProbeSeconds) +
                    " s as a GHC program does: record runs Haskell programs built by GHC");
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    RtsInfo info = parse_rts_info(text[0]);
    std::string complaint = explain_rts_complaint(argv0, text[1], code, info);
    const char* ghcrts = std::getenv("GHCRTS");
    if (!complaint.empty() && ghcrts && *ghcrts && complaint.find("-rtsopts") != std::string::npos)
        complaint += " (the options in GHCRTS count too: GHCRTS=" + std::string(ghcrts) + ")";
    if (!complaint.empty()) throw Error(complaint);
    return info;
}

}  // namespace el2fx::record

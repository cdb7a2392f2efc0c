// Runs the eventlog2fxprof binary for end-to-end tests: arguments, optional
// standard input, captured output and exit status.
#pragma once

#include <cstdlib>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace el2fx::testing {

struct ProcessResult {
    int status = -1;  // exit code, or 128 + signal
    std::string out, err;
};

inline std::string binary_path() {
    const char* p = std::getenv("EL2FX_BINARY");
    if (!p) throw std::runtime_error("EL2FX_BINARY is not set (run through meson test)");
    return p;
}

inline ProcessResult run_binary(std::vector<std::string> args, const std::string& input = {},
                                const std::string& cwd = {}) {
    args.insert(args.begin(), binary_path());
    int in[2], out[2], err[2];
    if (::pipe(in) || ::pipe(out) || ::pipe(err)) throw std::runtime_error("pipe");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_adddup2(&actions, err[1], 2);
    for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]}) posix_spawn_file_actions_addclose(&actions, fd);
    std::string old_cwd;
    if (!cwd.empty()) {
        char buf[4096];
        old_cwd = ::getcwd(buf, sizeof buf) ? buf : "";
        if (::chdir(cwd.c_str()) != 0) throw std::runtime_error("chdir " + cwd);
    }
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid;
    int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    if (!old_cwd.empty() && ::chdir(old_cwd.c_str()) != 0) throw std::runtime_error("chdir back");
    posix_spawn_file_actions_destroy(&actions);
    ::close(in[0]);
    ::close(out[1]);
    ::close(err[1]);
    if (rc != 0) throw std::runtime_error("posix_spawn failed");
    ProcessResult result;
    std::size_t written = 0;
    if (input.empty())
        ::close(in[1]);
    else
        ::fcntl(in[1], F_SETFL, O_NONBLOCK);
    bool in_open = !input.empty(), out_open = true, err_open = true;
    char buf[65536];
    while (out_open || err_open || in_open) {
        pollfd fds[3];
        int n = 0;
        if (out_open) fds[n++] = {out[0], POLLIN, 0};
        if (err_open) fds[n++] = {err[0], POLLIN, 0};
        if (in_open) fds[n++] = {in[1], POLLOUT, 0};
        ::poll(fds, static_cast<nfds_t>(n), -1);
        for (int i = 0; i < n; ++i) {
            if (!fds[i].revents) continue;
            if (fds[i].fd == in[1]) {
                ssize_t w = ::write(in[1], input.data() + written, input.size() - written);
                if (w > 0) written += static_cast<std::size_t>(w);
                if (w < 0 || written == input.size()) {
                    ::close(in[1]);
                    in_open = false;
                }
                continue;
            }
            ssize_t r = ::read(fds[i].fd, buf, sizeof buf);
            if (r <= 0) {
                ::close(fds[i].fd);
                (fds[i].fd == out[0] ? out_open : err_open) = false;
            } else {
                (fds[i].fd == out[0] ? result.out : result.err).append(buf, static_cast<std::size_t>(r));
            }
        }
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    result.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return result;
}

inline std::string env_dir(const char* var) {
    const char* p = std::getenv(var);
    return p ? p : "";
}

}  // namespace el2fx::testing

// A child process for the record tests: eventlog2fxprof (or a fixture program) with its
// standard streams on pipes, so that a test can wait for a line, send a signal, then collect
// everything and the exit status. Every wait has a deadline: a hung child fails the test
// (and is killed) instead of hanging the suite.
#pragma once

#include <chrono>
#include <csignal>
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

class Spawned {
public:
    // `env` adds NAME=VALUE entries to this process's environment.
    Spawned(std::vector<std::string> argv, const std::string& cwd = {}, std::vector<std::string> env = {}) {
        int in[2], out[2], err[2];
        if (::pipe2(in, O_CLOEXEC) || ::pipe2(out, O_CLOEXEC) || ::pipe2(err, O_CLOEXEC))
            throw std::runtime_error("pipe");
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, in[0], 0);
        posix_spawn_file_actions_adddup2(&actions, out[1], 1);
        posix_spawn_file_actions_adddup2(&actions, err[1], 2);
        if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
        std::vector<char*> args;
        for (auto& a : argv) args.push_back(a.data());
        args.push_back(nullptr);
        std::vector<std::string> env_copy;
        for (char** e = environ; *e; ++e) env_copy.emplace_back(*e);
        for (auto& e : env) env_copy.push_back(e);
        std::vector<char*> envp;
        for (auto& e : env_copy) envp.push_back(e.data());
        envp.push_back(nullptr);
        const int rc = posix_spawn(&pid_, args[0], &actions, nullptr, args.data(), envp.data());
        posix_spawn_file_actions_destroy(&actions);
        ::close(in[0]);
        ::close(out[1]);
        ::close(err[1]);
        if (rc != 0) throw std::runtime_error("posix_spawn " + argv[0]);
        in_ = in[1];
        out_ = out[0];
        err_ = err[0];
    }
    ~Spawned() {
        if (pid_ > 0 && status_ < 0) {
            ::kill(pid_, SIGKILL);
            int s;
            ::waitpid(pid_, &s, 0);
        }
        for (int fd : {in_, out_, err_})
            if (fd >= 0) ::close(fd);
    }
    Spawned(const Spawned&) = delete;
    Spawned& operator=(const Spawned&) = delete;

    pid_t pid() const { return pid_; }
    void signal(int sig) { ::kill(pid_, sig); }
    void write_input(const std::string& text) {
        if (::write(in_, text.data(), text.size()) != static_cast<ssize_t>(text.size()))
            throw std::runtime_error("write");
    }
    void close_input() {
        ::close(in_);
        in_ = -1;
    }

    // Reads until standard output holds `text`; false after `seconds`.
    bool wait_for_output(const std::string& text, double seconds) {
        return pump(seconds, [&] { return out.find(text) != std::string::npos; });
    }
    // The same for standard error.
    bool wait_for_error_output(const std::string& text, double seconds) {
        return pump(seconds, [&] { return err.find(text) != std::string::npos; });
    }
    // Reads everything, waits for the exit; returns the status (code, or 128 + signal), or -1
    // after `seconds` (the child is then killed).
    int finish(double seconds) {
        close_input_if_open();
        pump(seconds, [] { return false; });
        if (out_ >= 0 || err_ >= 0) {
            ::kill(pid_, SIGKILL);
            pump(5, [] { return false; });
        }
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
        int s = 0;
        for (;;) {
            const pid_t r = ::waitpid(pid_, &s, WNOHANG);
            if (r == pid_) break;
            if (std::chrono::steady_clock::now() > deadline) {
                ::kill(pid_, SIGKILL);
                ::waitpid(pid_, &s, 0);
                status_ = -1;
                return -1;
            }
            ::usleep(10000);
        }
        status_ = WIFEXITED(s) ? WEXITSTATUS(s) : 128 + WTERMSIG(s);
        return status_;
    }

    std::string out, err;

private:
    void close_input_if_open() {
        if (in_ >= 0) close_input();
    }
    template <class Done>
    bool pump(double seconds, Done done) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
        char buf[65536];
        while (!done()) {
            if (out_ < 0 && err_ < 0) return false;
            const auto left =
                std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0) return false;
            pollfd p[2];
            nfds_t n = 0;
            if (out_ >= 0) p[n++] = {out_, POLLIN, 0};
            if (err_ >= 0) p[n++] = {err_, POLLIN, 0};
            if (::poll(p, n, static_cast<int>(left.count())) <= 0) continue;
            for (nfds_t i = 0; i < n; ++i) {
                if (!p[i].revents) continue;
                const ssize_t r = ::read(p[i].fd, buf, sizeof buf);
                std::string& dest = p[i].fd == out_ ? out : err;
                if (r > 0) {
                    dest.append(buf, static_cast<std::size_t>(r));
                } else {
                    ::close(p[i].fd);
                    (p[i].fd == out_ ? out_ : err_) = -1;
                }
            }
        }
        return true;
    }

    pid_t pid_ = -1;
    int in_ = -1, out_ = -1, err_ = -1;
    int status_ = -1;
};

inline std::string env_or_empty(const char* name) {
    const char* v = std::getenv(name);
    return v ? v : "";
}

}  // namespace el2fx::testing

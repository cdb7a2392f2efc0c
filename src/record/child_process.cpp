#include "record/child_process.hpp"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <spawn.h>
#include <sys/wait.h>

#include "util/error.hpp"

extern char** environ;

namespace el2fx::record {
namespace {

std::atomic<pid_t> g_running{0};

ExitStatus from_wait_status(int status) {
    ExitStatus s;
    if (WIFSIGNALED(status)) {
        s.signaled = true;
        s.signal = WTERMSIG(status);
    } else {
        s.code = WEXITSTATUS(status);
    }
    return s;
}

}  // namespace

std::string ExitStatus::describe() const {
    if (!signaled) return "exited with status " + std::to_string(code);
    const char* name = ::strsignal(signal);
    return "was killed by signal " + std::to_string(signal) + (name ? std::string(" (") + name + ")" : "");
}

ChildProcess::ChildProcess(const std::string& path, const std::vector<std::string>& argv) {
    std::vector<char*> args;
    std::vector<std::string> copy = argv;
    for (std::string& a : copy) args.push_back(a.data());
    args.push_back(nullptr);

    // The signal mask and ignored signals are inherited as a direct run would inherit them (run
    // under nohup, it ignores SIGHUP); the caller's handlers become the default ones at exec.
    pid_t pid = -1;
    const int rc = ::posix_spawn(&pid, path.c_str(), nullptr, nullptr, args.data(), environ);
    if (rc != 0) throw Error("cannot run " + path + ": " + std::strerror(rc));
    pid_ = pid;
    g_running.store(pid);
}

ChildProcess::~ChildProcess() {
    if (status_ || pid_ <= 0) return;
    ::kill(pid_, SIGKILL);
    reap(true);
}

std::optional<ExitStatus> ChildProcess::reap(bool block) {
    if (status_) return status_;
    // Wait without reaping first: until it is reaped the pid cannot be reused, so a signal
    // handler that read g_running before it is cleared still signals this (ended) child.
    siginfo_t info{};
    while (::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOWAIT | (block ? 0 : WNOHANG)) != 0) {
        if (errno != EINTR) throw Error(std::string("waiting for the program: ") + std::strerror(errno));
    }
    if (info.si_pid == 0) return std::nullopt;  // still running
    pid_t expected = pid_;
    g_running.compare_exchange_strong(expected, 0);
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0) {
        if (errno != EINTR) throw Error(std::string("waiting for the program: ") + std::strerror(errno));
    }
    status_ = from_wait_status(status);
    return status_;
}

std::optional<ExitStatus> ChildProcess::try_wait() { return reap(false); }

ExitStatus ChildProcess::wait() { return *reap(true); }

bool signal_recorded_child(int sig) noexcept {
    const pid_t pid = g_running.load();
    if (pid <= 0) return false;
    return ::kill(pid, sig) == 0;
}

}  // namespace el2fx::record

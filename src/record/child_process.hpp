// The program being recorded: started with posix_spawn (the caller's environment, standard
// streams, signal mask and ignored signals; caught signals are reset by exec), waited for without reaping it
// before the caller knows, so that a signal handler never signals a recycled pid.
#pragma once

#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace el2fx::record {

struct ExitStatus {
    bool signaled = false;
    int code = 0;    // exit code, when not signaled
    int signal = 0;  // the signal that ended it, when signaled
    // What a shell shows: the code, or 128 + the signal.
    int shell_status() const { return signaled ? 128 + signal : code; }
    // "exited with status 3", "was killed by signal 9 (Killed)".
    std::string describe() const;
};

class ChildProcess {
public:
    // Starts `path` with `argv` (argv[0] as the program will see it). Throws el2fx::Error.
    ChildProcess(const std::string& path, const std::vector<std::string>& argv);
    // A child still running is killed (SIGKILL) and reaped.
    ~ChildProcess();
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    pid_t pid() const { return pid_; }
    // The exit status once the child has ended (then reaped), else nullopt. Never blocks.
    std::optional<ExitStatus> try_wait();
    // Blocks until it ends.
    ExitStatus wait();

private:
    std::optional<ExitStatus> reap(bool block);
    pid_t pid_ = -1;
    std::optional<ExitStatus> status_;
};

// Sends `sig` to the child that is running now, if any (one ChildProcess at a time receives
// signals: the latest started). Async-signal-safe. Returns false when there is none.
bool signal_recorded_child(int sig) noexcept;

}  // namespace el2fx::record

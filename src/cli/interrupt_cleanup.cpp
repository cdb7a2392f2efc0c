#include "cli/interrupt_cleanup.hpp"

#include "util/temp_files.hpp"

namespace el2fx::cli {
namespace {

extern "C" void remove_temp_files_then_die(int sig) {
    util::remove_registered_temp_files();  // async-signal-safe: atomics, unlink(2), rmdir(2)
    // SA_RESETHAND restored the default action; the signal is blocked until this returns,
    // then delivered: the program ends by it.
    ::raise(sig);
}

}  // namespace

RemoveTempFilesOnSignal::RemoveTempFilesOnSignal() {
    struct sigaction action {};
    action.sa_handler = remove_temp_files_then_die;
    action.sa_flags = SA_RESETHAND;
    sigemptyset(&action.sa_mask);
    for (int sig : kSignals) sigaddset(&action.sa_mask, sig);  // one cleanup at a time
    for (int i = 0; i < 3; ++i) {
        if (::sigaction(kSignals[i], nullptr, &old_[i]) != 0) continue;
        if (old_[i].sa_handler == SIG_IGN) continue;  // e.g. started with nohup: stays ignored
        installed_[i] = ::sigaction(kSignals[i], &action, nullptr) == 0;
    }
}

RemoveTempFilesOnSignal::~RemoveTempFilesOnSignal() {
    for (int i = 0; i < 3; ++i)
        if (installed_[i]) ::sigaction(kSignals[i], &old_[i], nullptr);
}

}  // namespace el2fx::cli

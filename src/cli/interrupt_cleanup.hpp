// While it lives, SIGINT, SIGTERM and SIGHUP first remove the temporary files the library
// registered (fxprof/temp_files.hpp: the profile being written), then end the program by the
// same signal, as if no handler had been there (a shell shows exit status 128 + N). Signals
// the program was started with ignored stay ignored. Only the program installs this; the
// library never touches signal dispositions.
#pragma once

#include <csignal>

namespace el2fx::cli {

class RemoveTempFilesOnSignal {
public:
    RemoveTempFilesOnSignal();
    ~RemoveTempFilesOnSignal();
    RemoveTempFilesOnSignal(const RemoveTempFilesOnSignal&) = delete;
    RemoveTempFilesOnSignal& operator=(const RemoveTempFilesOnSignal&) = delete;

private:
    static constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};
    struct sigaction old_[3]{};
    bool installed_[3] = {};
};

}  // namespace el2fx::cli

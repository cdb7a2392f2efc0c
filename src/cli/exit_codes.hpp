#pragma once

namespace el2fx::cli {

enum ExitCode : int {
    kOk = 0,
    kInputError = 1,  // unreadable, corrupt or unwritable
    kUsageError = 2,  // bad command line
    kDataLoss = 3,    // --strict and the input lost data (truncated, skipped events)
};

}  // namespace el2fx::cli

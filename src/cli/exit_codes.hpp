#pragma once

namespace el2fx::cli {

enum ExitCode : int {
    kOk = 0,
    kInputError = 1,   // unreadable, corrupt or unwritable
    kUsageError = 2,   // bad command line
    kDataLoss = 3,     // --strict and the input lost data (truncated, skipped events)
    kRecordError = 4,  // record/attach: nothing to record (not a GHC program, no eventlog support, ...)
    kGateFailed = 5,   // compare: a --fail-if gate failed
};

}  // namespace el2fx::cli

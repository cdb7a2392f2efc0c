#include "analysis/threading/stop_status_text.hpp"

namespace el2fx::analysis {

std::string stop_status_text(std::uint16_t status) {
    using eventlog::StopStatus;
    switch (static_cast<StopStatus>(status)) {
        case StopStatus::HeapOverflow: return "heap overflow";
        case StopStatus::StackOverflow: return "stack overflow";
        case StopStatus::ThreadYielding: return "thread yielding";
        case StopStatus::ThreadBlocked: return "thread blocked";
        case StopStatus::ThreadFinished: return "thread finished";
        case StopStatus::ForeignCall: return "making a foreign call";
        case StopStatus::BlockedOnMVar: return "blocked on an MVar";
        case StopStatus::BlockedOnBlackHole: return "blocked on black hole";
        case StopStatus::BlockedOnRead: return "blocked on I/O read";
        case StopStatus::BlockedOnWrite: return "blocked on I/O write";
        case StopStatus::BlockedOnDelay: return "blocked on threadDelay";
        case StopStatus::BlockedOnSTM: return "blocked in STM retry";
        case StopStatus::BlockedOnDoProc: return "blocked on asyncDoProc";
        case StopStatus::BlockedOnCCall: return "blocked on an external call";
        case StopStatus::BlockedOnCCall_Interruptible: return "blocked on an external call (interruptible)";
        case StopStatus::BlockedOnMsgThrowTo: return "blocked in throwTo";
        case StopStatus::ThreadMigrating: return "thread migrating";
        case StopStatus::BlockedOnMVarRead: return "blocked reading an MVar";
    }
    return "unknown status " + std::to_string(status);
}

std::string block_reason_text(const BlockReason& reason) {
    std::string text = stop_status_text(reason.status);
    if (block_reason_names_blocker(reason)) text += " owned by thread " + std::to_string(reason.blocker);
    return text;
}

bool block_reason_names_blocker(const BlockReason& reason) {
    return reason.status == static_cast<std::uint16_t>(eventlog::StopStatus::BlockedOnBlackHole) && reason.blocker;
}

}  // namespace el2fx::analysis

// THE event table. Every event type this tool understands is one payload struct
// below, named as GHC names it, with its tag, its GHC name and its field list in
// wire order. The decoder, the test encoder and the printers are all driven by
// these field lists; `AllPayloads` at the bottom is the table itself.
//
// Layouts follow what the runtime really writes (shared/eventlog-facts.md), not the
// users' guide. A field that newer GHCs append is std::optional: present when the
// header declares a payload long enough for it.
//
// Two optional members tell the `ghc-events show` printer (show_text.cpp) where
// ghc-events 0.21 has no parser although this table decodes the event; `show` then
// prints the header's description of the type instead of the event's text:
//   static constexpr bool show_description_only = true;   // no parser for the tag at all
//   static constexpr bool show_needs_every_field = true;  // no parser for a layout that
//                                                         // lacks an optional field
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <tuple>
#include <variant>

#include "eventlog/field_types.hpp"

namespace el2fx::eventlog {

using ThreadId = std::uint32_t;
using CapNo = std::uint16_t;
using CapsetId = std::uint32_t;

template <typename S, typename T>
struct Field {
    std::string_view name;
    T S::*member;
};
template <typename S, typename T>
constexpr Field<S, T> field(std::string_view name, T S::*member) {
    return {name, member};
}

// STOP_THREAD status codes as the RTS writes them since GHC 7.8.3 (eventlog-facts §4.3).
enum class StopStatus : std::uint16_t {
    HeapOverflow = 1,
    StackOverflow = 2,
    ThreadYielding = 3,
    ThreadBlocked = 4,
    ThreadFinished = 5,
    ForeignCall = 6,
    BlockedOnMVar = 7,
    BlockedOnBlackHole = 8,
    BlockedOnRead = 9,
    BlockedOnWrite = 10,
    BlockedOnDelay = 11,
    BlockedOnSTM = 12,
    BlockedOnDoProc = 13,
    BlockedOnCCall = 16,
    BlockedOnCCall_Interruptible = 17,
    BlockedOnMsgThrowTo = 18,
    ThreadMigrating = 19,
    BlockedOnMVarRead = 20,
};

// ---- Threads and scheduling -------------------------------------------------

struct CreateThread {
    static constexpr std::uint16_t tag = 0;
    static constexpr std::string_view name = "CREATE_THREAD";
    ThreadId thread = 0;
    static constexpr auto fields() { return std::tuple{field("thread", &CreateThread::thread)}; }
};

struct RunThread {
    static constexpr std::uint16_t tag = 1;
    static constexpr std::string_view name = "RUN_THREAD";
    ThreadId thread = 0;
    static constexpr auto fields() { return std::tuple{field("thread", &RunThread::thread)}; }
};

struct StopThread {
    static constexpr std::uint16_t tag = 2;
    static constexpr std::string_view name = "STOP_THREAD";
    ThreadId thread = 0;
    std::uint16_t status = 0;
    // Owner of the black hole for BlockedOnBlackHole (0 when unknown); absent in
    // GHC < 7.2 logs, whose STOP_THREAD is 6 bytes.
    std::optional<ThreadId> blocker;
    static constexpr bool show_needs_every_field = true;  // ghc-events reads only the 10-byte form
    static constexpr auto fields() {
        return std::tuple{field("thread", &StopThread::thread), field("status", &StopThread::status),
                          field("blocker", &StopThread::blocker)};
    }
};

struct ThreadRunnable {
    static constexpr std::uint16_t tag = 3;
    static constexpr std::string_view name = "THREAD_RUNNABLE";
    ThreadId thread = 0;
    static constexpr auto fields() { return std::tuple{field("thread", &ThreadRunnable::thread)}; }
};

struct MigrateThread {
    static constexpr std::uint16_t tag = 4;
    static constexpr std::string_view name = "MIGRATE_THREAD";
    ThreadId thread = 0;
    CapNo new_cap = 0;
    static constexpr auto fields() {
        return std::tuple{field("thread", &MigrateThread::thread), field("new_cap", &MigrateThread::new_cap)};
    }
};

struct RunSpark {  // pre-7.4
    static constexpr std::uint16_t tag = 5;
    static constexpr std::string_view name = "RUN_SPARK";
    static constexpr bool show_description_only = true;
    ThreadId thread = 0;
    static constexpr auto fields() { return std::tuple{field("thread", &RunSpark::thread)}; }
};

struct StealSpark {  // pre-7.4
    static constexpr std::uint16_t tag = 6;
    static constexpr std::string_view name = "STEAL_SPARK";
    static constexpr bool show_description_only = true;
    ThreadId thread = 0;
    CapNo victim_cap = 0;
    static constexpr auto fields() {
        return std::tuple{field("thread", &StealSpark::thread), field("victim_cap", &StealSpark::victim_cap)};
    }
};

struct Shutdown {  // pre-7.6; replaced by CAP_DELETE
    static constexpr std::uint16_t tag = 7;
    static constexpr std::string_view name = "SHUTDOWN";
    static constexpr bool show_description_only = true;
    static constexpr auto fields() { return std::tuple{}; }
};

struct WakeupThread {
    static constexpr std::uint16_t tag = 8;
    static constexpr std::string_view name = "THREAD_WAKEUP";
    ThreadId thread = 0;
    CapNo other_cap = 0;
    static constexpr auto fields() {
        return std::tuple{field("thread", &WakeupThread::thread), field("other_cap", &WakeupThread::other_cap)};
    }
};

// ---- Garbage collection -----------------------------------------------------

struct StartGC {
    static constexpr std::uint16_t tag = 9;
    static constexpr std::string_view name = "GC_START";
    static constexpr auto fields() { return std::tuple{}; }
};

struct EndGC {
    static constexpr std::uint16_t tag = 10;
    static constexpr std::string_view name = "GC_END";
    static constexpr auto fields() { return std::tuple{}; }
};

struct RequestSeqGC {
    static constexpr std::uint16_t tag = 11;
    static constexpr std::string_view name = "REQUEST_SEQ_GC";
    static constexpr auto fields() { return std::tuple{}; }
};

struct RequestParGC {
    static constexpr std::uint16_t tag = 12;
    static constexpr std::string_view name = "REQUEST_PAR_GC";
    static constexpr auto fields() { return std::tuple{}; }
};

struct CreateSparkThread {
    static constexpr std::uint16_t tag = 15;
    static constexpr std::string_view name = "CREATE_SPARK_THREAD";
    ThreadId spark_thread = 0;
    static constexpr auto fields() { return std::tuple{field("spark_thread", &CreateSparkThread::spark_thread)}; }
};

struct LogMsg {  // RTS debug messages
    static constexpr std::uint16_t tag = 16;
    static constexpr std::string_view name = "LOG_MSG";
    Text message;
    static constexpr auto fields() { return std::tuple{field("message", &LogMsg::message)}; }
};

struct Startup {  // pre-7.6; replaced by CAP_CREATE
    static constexpr std::uint16_t tag = 17;
    static constexpr std::string_view name = "STARTUP";
    CapNo n_caps = 0;
    static constexpr auto fields() { return std::tuple{field("n_caps", &Startup::n_caps)}; }
};

// Starts a block of events written by one capability's buffer (cap 0xFFFF: the
// global buffer). `size` counts the bytes of the whole block, this marker included.
struct BlockMarker {
    static constexpr std::uint16_t tag = 18;
    static constexpr std::string_view name = "BLOCK_MARKER";
    std::uint32_t size = 0;
    std::uint64_t end_time = 0;
    CapNo cap = 0;
    static constexpr auto fields() {
        return std::tuple{field("size", &BlockMarker::size), field("end_time", &BlockMarker::end_time),
                          field("cap", &BlockMarker::cap)};
    }
};
constexpr CapNo kGlobalCap = 0xFFFF;

// Every record starts with its tag and timestamp; the end-of-data marker is a bare tag.
constexpr std::size_t kEventHeader = 2 + 8;
constexpr std::uint16_t kEndOfData = 0xFFFF;

struct UserMessage {  // traceEvent
    static constexpr std::uint16_t tag = 19;
    static constexpr std::string_view name = "USER_MSG";
    Text message;
    static constexpr auto fields() { return std::tuple{field("message", &UserMessage::message)}; }
};

struct GCIdle {
    static constexpr std::uint16_t tag = 20;
    static constexpr std::string_view name = "GC_IDLE";
    static constexpr auto fields() { return std::tuple{}; }
};

struct GCWork {
    static constexpr std::uint16_t tag = 21;
    static constexpr std::string_view name = "GC_WORK";
    static constexpr auto fields() { return std::tuple{}; }
};

struct GCDone {
    static constexpr std::uint16_t tag = 22;
    static constexpr std::string_view name = "GC_DONE";
    static constexpr auto fields() { return std::tuple{}; }
};

// Eden's RTS writes these two as Latin-1 text.
struct Version {
    static constexpr std::uint16_t tag = 23;
    static constexpr std::string_view name = "VERSION";
    Text version;
    static constexpr auto fields() { return std::tuple{field("version", &Version::version)}; }
};

struct ProgramInvocation {
    static constexpr std::uint16_t tag = 24;
    static constexpr std::string_view name = "PROGRAM_INVOCATION";
    Text command_line;
    static constexpr auto fields() { return std::tuple{field("command_line", &ProgramInvocation::command_line)}; }
};

// ---- Capability sets, process and RTS identity --------------------------------

struct CapsetCreate {
    static constexpr std::uint16_t tag = 25;
    static constexpr std::string_view name = "CAPSET_CREATE";
    CapsetId capset = 0;
    std::uint16_t type = 0;  // 1 custom, 2 OS process, 3 clock domain
    static constexpr auto fields() {
        return std::tuple{field("capset", &CapsetCreate::capset), field("type", &CapsetCreate::type)};
    }
};

struct CapsetDelete {
    static constexpr std::uint16_t tag = 26;
    static constexpr std::string_view name = "CAPSET_DELETE";
    CapsetId capset = 0;
    static constexpr auto fields() { return std::tuple{field("capset", &CapsetDelete::capset)}; }
};

struct CapsetAssignCap {
    static constexpr std::uint16_t tag = 27;
    static constexpr std::string_view name = "CAPSET_ASSIGN_CAP";
    CapsetId capset = 0;
    CapNo cap = 0;
    static constexpr auto fields() {
        return std::tuple{field("capset", &CapsetAssignCap::capset), field("cap", &CapsetAssignCap::cap)};
    }
};

struct CapsetRemoveCap {
    static constexpr std::uint16_t tag = 28;
    static constexpr std::string_view name = "CAPSET_REMOVE_CAP";
    CapsetId capset = 0;
    CapNo cap = 0;
    static constexpr auto fields() {
        return std::tuple{field("capset", &CapsetRemoveCap::capset), field("cap", &CapsetRemoveCap::cap)};
    }
};

struct RtsIdentifier {  // "GHC-9.0.2 rts_thr_l"
    static constexpr std::uint16_t tag = 29;
    static constexpr std::string_view name = "RTS_IDENTIFIER";
    CapsetId capset = 0;
    Text identifier;
    static constexpr auto fields() {
        return std::tuple{field("capset", &RtsIdentifier::capset), field("identifier", &RtsIdentifier::identifier)};
    }
};

struct ProgramArgs {
    static constexpr std::uint16_t tag = 30;
    static constexpr std::string_view name = "PROGRAM_ARGS";
    CapsetId capset = 0;
    StringList args;
    static constexpr auto fields() {
        return std::tuple{field("capset", &ProgramArgs::capset), field("args", &ProgramArgs::args)};
    }
};

// Privacy: may hold secrets. Never written to a profile unless asked for.
struct ProgramEnv {
    static constexpr std::uint16_t tag = 31;
    static constexpr std::string_view name = "PROGRAM_ENV";
    CapsetId capset = 0;
    StringList env;
    static constexpr auto fields() {
        return std::tuple{field("capset", &ProgramEnv::capset), field("env", &ProgramEnv::env)};
    }
};

struct OsProcessPid {
    static constexpr std::uint16_t tag = 32;
    static constexpr std::string_view name = "OSPROCESS_PID";
    CapsetId capset = 0;
    std::uint32_t pid = 0;
    static constexpr auto fields() {
        return std::tuple{field("capset", &OsProcessPid::capset), field("pid", &OsProcessPid::pid)};
    }
};

struct OsProcessParentPid {
    static constexpr std::uint16_t tag = 33;
    static constexpr std::string_view name = "OSPROCESS_PPID";
    CapsetId capset = 0;
    std::uint32_t ppid = 0;
    static constexpr auto fields() {
        return std::tuple{field("capset", &OsProcessParentPid::capset), field("ppid", &OsProcessParentPid::ppid)};
    }
};

// ---- Sparks -------------------------------------------------------------------

// Note the wire order: gcd comes before fizzled.
struct SparkCounters {
    static constexpr std::uint16_t tag = 34;
    static constexpr std::string_view name = "SPARK_COUNTERS";
    std::uint64_t created = 0, dud = 0, overflowed = 0, converted = 0, gcd = 0, fizzled = 0, remaining = 0;
    static constexpr auto fields() {
        return std::tuple{field("created", &SparkCounters::created),
                          field("dud", &SparkCounters::dud),
                          field("overflowed", &SparkCounters::overflowed),
                          field("converted", &SparkCounters::converted),
                          field("gcd", &SparkCounters::gcd),
                          field("fizzled", &SparkCounters::fizzled),
                          field("remaining", &SparkCounters::remaining)};
    }
};

struct SparkCreate {
    static constexpr std::uint16_t tag = 35;
    static constexpr std::string_view name = "SPARK_CREATE";
    static constexpr auto fields() { return std::tuple{}; }
};
struct SparkDud {
    static constexpr std::uint16_t tag = 36;
    static constexpr std::string_view name = "SPARK_DUD";
    static constexpr auto fields() { return std::tuple{}; }
};
struct SparkOverflow {
    static constexpr std::uint16_t tag = 37;
    static constexpr std::string_view name = "SPARK_OVERFLOW";
    static constexpr auto fields() { return std::tuple{}; }
};
struct SparkRun {
    static constexpr std::uint16_t tag = 38;
    static constexpr std::string_view name = "SPARK_RUN";
    static constexpr auto fields() { return std::tuple{}; }
};
struct SparkSteal {
    static constexpr std::uint16_t tag = 39;
    static constexpr std::string_view name = "SPARK_STEAL";
    CapNo victim_cap = 0;
    static constexpr auto fields() { return std::tuple{field("victim_cap", &SparkSteal::victim_cap)}; }
};
struct SparkFizzle {
    static constexpr std::uint16_t tag = 40;
    static constexpr std::string_view name = "SPARK_FIZZLE";
    static constexpr auto fields() { return std::tuple{}; }
};
struct SparkGC {
    static constexpr std::uint16_t tag = 41;
    static constexpr std::string_view name = "SPARK_GC";
    static constexpr auto fields() { return std::tuple{}; }
};

// The string is every payload byte but the last 4, as ghc-events reads it: no NUL
// ends it, and a NUL that is there belongs to it (see payload_decoder.cpp).
struct InternString {  // Mercury; not written by GHC
    static constexpr std::uint16_t tag = 42;
    static constexpr std::string_view name = "INTERN_STRING";
    CString string;
    std::uint32_t id = 0;
    static constexpr auto fields() {
        return std::tuple{field("string", &InternString::string), field("id", &InternString::id)};
    }
};

struct WallClockTime {
    static constexpr std::uint16_t tag = 43;
    static constexpr std::string_view name = "WALL_CLOCK_TIME";
    CapsetId capset = 0;
    std::uint64_t sec = 0;
    std::uint32_t nsec = 0;
    static constexpr auto fields() {
        return std::tuple{field("capset", &WallClockTime::capset), field("sec", &WallClockTime::sec),
                          field("nsec", &WallClockTime::nsec)};
    }
};

struct ThreadLabel {
    static constexpr std::uint16_t tag = 44;
    static constexpr std::string_view name = "THREAD_LABEL";
    ThreadId thread = 0;
    Text label;
    static constexpr auto fields() {
        return std::tuple{field("thread", &ThreadLabel::thread), field("label", &ThreadLabel::label)};
    }
};

// ---- Capabilities -------------------------------------------------------------

struct CapCreate {
    static constexpr std::uint16_t tag = 45;
    static constexpr std::string_view name = "CAP_CREATE";
    CapNo cap = 0;
    static constexpr auto fields() { return std::tuple{field("cap", &CapCreate::cap)}; }
};
struct CapDelete {
    static constexpr std::uint16_t tag = 46;
    static constexpr std::string_view name = "CAP_DELETE";
    CapNo cap = 0;
    static constexpr auto fields() { return std::tuple{field("cap", &CapDelete::cap)}; }
};
struct CapDisable {
    static constexpr std::uint16_t tag = 47;
    static constexpr std::string_view name = "CAP_DISABLE";
    CapNo cap = 0;
    static constexpr auto fields() { return std::tuple{field("cap", &CapDisable::cap)}; }
};
struct CapEnable {
    static constexpr std::uint16_t tag = 48;
    static constexpr std::string_view name = "CAP_ENABLE";
    CapNo cap = 0;
    static constexpr auto fields() { return std::tuple{field("cap", &CapEnable::cap)}; }
};

// ---- Heap ---------------------------------------------------------------------

struct HeapAllocated {  // cumulative bytes allocated by this capability
    static constexpr std::uint16_t tag = 49;
    static constexpr std::string_view name = "HEAP_ALLOCATED";
    CapsetId heap_capset = 0;
    std::uint64_t alloc_bytes = 0;
    static constexpr auto fields() {
        return std::tuple{field("heap_capset", &HeapAllocated::heap_capset),
                          field("alloc_bytes", &HeapAllocated::alloc_bytes)};
    }
};
struct HeapSize {
    static constexpr std::uint16_t tag = 50;
    static constexpr std::string_view name = "HEAP_SIZE";
    CapsetId heap_capset = 0;
    std::uint64_t size_bytes = 0;
    static constexpr auto fields() {
        return std::tuple{field("heap_capset", &HeapSize::heap_capset), field("size_bytes", &HeapSize::size_bytes)};
    }
};
struct HeapLive {
    static constexpr std::uint16_t tag = 51;
    static constexpr std::string_view name = "HEAP_LIVE";
    CapsetId heap_capset = 0;
    std::uint64_t live_bytes = 0;
    static constexpr auto fields() {
        return std::tuple{field("heap_capset", &HeapLive::heap_capset), field("live_bytes", &HeapLive::live_bytes)};
    }
};
struct HeapInfoGHC {
    static constexpr std::uint16_t tag = 52;
    static constexpr std::string_view name = "HEAP_INFO_GHC";
    CapsetId heap_capset = 0;
    std::uint16_t gens = 0;
    std::uint64_t max_heap_size = 0, alloc_area_size = 0, mblock_size = 0, block_size = 0;
    static constexpr auto fields() {
        return std::tuple{field("heap_capset", &HeapInfoGHC::heap_capset),
                          field("gens", &HeapInfoGHC::gens),
                          field("max_heap_size", &HeapInfoGHC::max_heap_size),
                          field("alloc_area_size", &HeapInfoGHC::alloc_area_size),
                          field("mblock_size", &HeapInfoGHC::mblock_size),
                          field("block_size", &HeapInfoGHC::block_size)};
    }
};
// 50 bytes up to GHC 8.4, 58 (with par_balanced_copied) since 8.6.
struct GCStatsGHC {
    static constexpr std::uint16_t tag = 53;
    static constexpr std::string_view name = "GC_STATS_GHC";
    CapsetId heap_capset = 0;
    std::uint16_t gen = 0;
    std::uint64_t copied = 0, slop = 0, frag = 0;
    std::uint32_t par_n_threads = 0;
    std::uint64_t par_max_copied = 0, par_tot_copied = 0;
    std::optional<std::uint64_t> par_balanced_copied;
    static constexpr auto fields() {
        return std::tuple{field("heap_capset", &GCStatsGHC::heap_capset),
                          field("gen", &GCStatsGHC::gen),
                          field("copied", &GCStatsGHC::copied),
                          field("slop", &GCStatsGHC::slop),
                          field("frag", &GCStatsGHC::frag),
                          field("par_n_threads", &GCStatsGHC::par_n_threads),
                          field("par_max_copied", &GCStatsGHC::par_max_copied),
                          field("par_tot_copied", &GCStatsGHC::par_tot_copied),
                          field("par_balanced_copied", &GCStatsGHC::par_balanced_copied)};
    }
};
struct GlobalSyncGC {
    static constexpr std::uint16_t tag = 54;
    static constexpr std::string_view name = "GC_GLOBAL_SYNC";
    static constexpr auto fields() { return std::tuple{}; }
};

// ---- Tasks (OS threads) ---------------------------------------------------------

struct TaskCreate {
    static constexpr std::uint16_t tag = 55;
    static constexpr std::string_view name = "TASK_CREATE";
    std::uint64_t task = 0;
    CapNo cap = 0;
    std::uint64_t tid = 0;  // OS kernel thread id
    static constexpr auto fields() {
        return std::tuple{field("task", &TaskCreate::task), field("cap", &TaskCreate::cap),
                          field("tid", &TaskCreate::tid)};
    }
};
struct TaskMigrate {
    static constexpr std::uint16_t tag = 56;
    static constexpr std::string_view name = "TASK_MIGRATE";
    std::uint64_t task = 0;
    CapNo cap = 0, new_cap = 0;
    static constexpr auto fields() {
        return std::tuple{field("task", &TaskMigrate::task), field("cap", &TaskMigrate::cap),
                          field("new_cap", &TaskMigrate::new_cap)};
    }
};
struct TaskDelete {
    static constexpr std::uint16_t tag = 57;
    static constexpr std::string_view name = "TASK_DELETE";
    std::uint64_t task = 0;
    static constexpr auto fields() { return std::tuple{field("task", &TaskDelete::task)}; }
};

struct UserMarker {  // traceMarker
    static constexpr std::uint16_t tag = 58;
    static constexpr std::string_view name = "USER_MARKER";
    Text marker;
    static constexpr auto fields() { return std::tuple{field("marker", &UserMarker::marker)}; }
};

// Its presence in the header marks the post-7.8.2 STOP_THREAD status numbering.
struct HackBugT9003 {
    static constexpr std::uint16_t tag = 59;
    static constexpr std::string_view name = "HACK_BUG_T9003";
    static constexpr bool show_description_only = true;
    static constexpr auto fields() { return std::tuple{}; }
};

// ---- Eden (parallel Haskell on distributed memory; Eden's RTS only) ---------------

struct EdenStartReceive {
    static constexpr std::uint16_t tag = 60;
    static constexpr std::string_view name = "EDEN_START_RECEIVE";
    static constexpr auto fields() { return std::tuple{}; }
};
struct EdenEndReceive {
    static constexpr std::uint16_t tag = 61;
    static constexpr std::string_view name = "EDEN_END_RECEIVE";
    static constexpr auto fields() { return std::tuple{}; }
};
struct CreateProcess {
    static constexpr std::uint16_t tag = 62;
    static constexpr std::string_view name = "CREATE_PROCESS";
    std::uint32_t process = 0;
    static constexpr auto fields() { return std::tuple{field("process", &CreateProcess::process)}; }
};
struct KillProcess {
    static constexpr std::uint16_t tag = 63;
    static constexpr std::string_view name = "KILL_PROCESS";
    std::uint32_t process = 0;
    static constexpr auto fields() { return std::tuple{field("process", &KillProcess::process)}; }
};
struct AssignThreadToProcess {
    static constexpr std::uint16_t tag = 64;
    static constexpr std::string_view name = "ASSIGN_THREAD_TO_PROCESS";
    ThreadId thread = 0;
    std::uint32_t process = 0;
    static constexpr auto fields() {
        return std::tuple{field("thread", &AssignThreadToProcess::thread),
                          field("process", &AssignThreadToProcess::process)};
    }
};
struct CreateMachine {
    static constexpr std::uint16_t tag = 65;
    static constexpr std::string_view name = "CREATE_MACHINE";
    std::uint16_t machine = 0;
    std::uint64_t realtime = 0;
    static constexpr auto fields() {
        return std::tuple{field("machine", &CreateMachine::machine), field("realtime", &CreateMachine::realtime)};
    }
};
struct KillMachine {
    static constexpr std::uint16_t tag = 66;
    static constexpr std::string_view name = "KILL_MACHINE";
    std::uint16_t machine = 0;
    static constexpr auto fields() { return std::tuple{field("machine", &KillMachine::machine)}; }
};
// Message tags are 0x50 (Ready) to 0x5C (Packet); see show_text.cpp for the names.
struct SendMessage {
    static constexpr std::uint16_t tag = 67;
    static constexpr std::string_view name = "SEND_MESSAGE";
    std::uint8_t message_tag = 0;
    std::uint32_t sender_process = 0;
    ThreadId sender_thread = 0;
    std::uint16_t receiver_machine = 0;
    std::uint32_t receiver_process = 0, receiver_inport = 0;
    static constexpr auto fields() {
        return std::tuple{field("message_tag", &SendMessage::message_tag),
                          field("sender_process", &SendMessage::sender_process),
                          field("sender_thread", &SendMessage::sender_thread),
                          field("receiver_machine", &SendMessage::receiver_machine),
                          field("receiver_process", &SendMessage::receiver_process),
                          field("receiver_inport", &SendMessage::receiver_inport)};
    }
};
struct ReceiveMessage {
    static constexpr std::uint16_t tag = 68;
    static constexpr std::string_view name = "RECEIVE_MESSAGE";
    std::uint8_t message_tag = 0;
    std::uint32_t receiver_process = 0, receiver_inport = 0;
    std::uint16_t sender_machine = 0;
    std::uint32_t sender_process = 0;
    ThreadId sender_thread = 0;
    std::uint32_t message_size = 0;
    static constexpr auto fields() {
        return std::tuple{field("message_tag", &ReceiveMessage::message_tag),
                          field("receiver_process", &ReceiveMessage::receiver_process),
                          field("receiver_inport", &ReceiveMessage::receiver_inport),
                          field("sender_machine", &ReceiveMessage::sender_machine),
                          field("sender_process", &ReceiveMessage::sender_process),
                          field("sender_thread", &ReceiveMessage::sender_thread),
                          field("message_size", &ReceiveMessage::message_size)};
    }
};
struct SendReceiveLocalMessage {
    static constexpr std::uint16_t tag = 69;
    static constexpr std::string_view name = "SEND_RECEIVE_LOCAL_MESSAGE";
    std::uint8_t message_tag = 0;
    std::uint32_t sender_process = 0;
    ThreadId sender_thread = 0;
    std::uint32_t receiver_process = 0, receiver_inport = 0;
    static constexpr auto fields() {
        return std::tuple{field("message_tag", &SendReceiveLocalMessage::message_tag),
                          field("sender_process", &SendReceiveLocalMessage::sender_process),
                          field("sender_thread", &SendReceiveLocalMessage::sender_thread),
                          field("receiver_process", &SendReceiveLocalMessage::receiver_process),
                          field("receiver_inport", &SendReceiveLocalMessage::receiver_inport)};
    }
};

// ---- Memory (GHC 9.2+) ------------------------------------------------------------

struct MemReturn {  // in megablocks
    static constexpr std::uint16_t tag = 90;
    static constexpr std::string_view name = "MEM_RETURN";
    CapsetId heap_capset = 0;
    std::uint32_t current = 0, needed = 0, returned = 0;
    static constexpr auto fields() {
        return std::tuple{field("heap_capset", &MemReturn::heap_capset), field("current", &MemReturn::current),
                          field("needed", &MemReturn::needed), field("returned", &MemReturn::returned)};
    }
};
struct BlocksSize {
    static constexpr std::uint16_t tag = 91;
    static constexpr std::string_view name = "BLOCKS_SIZE";
    CapsetId heap_capset = 0;
    std::uint64_t size_bytes = 0;
    static constexpr auto fields() {
        return std::tuple{field("heap_capset", &BlocksSize::heap_capset), field("size_bytes", &BlocksSize::size_bytes)};
    }
};

// ---- Mercury (its own RTS writes these; ids are its own) ----------------------------

struct MerStartParConjunction {
    static constexpr std::uint16_t tag = 100;
    static constexpr std::string_view name = "MER_START_PAR_CONJUNCTION";
    std::uint64_t dyn_id = 0;
    std::uint32_t static_id = 0;
    static constexpr auto fields() {
        return std::tuple{field("dyn_id", &MerStartParConjunction::dyn_id),
                          field("static_id", &MerStartParConjunction::static_id)};
    }
};
struct MerStopParConjunction {
    static constexpr std::uint16_t tag = 101;
    static constexpr std::string_view name = "MER_STOP_PAR_CONJUNCTION";
    std::uint64_t dyn_id = 0;
    static constexpr auto fields() { return std::tuple{field("dyn_id", &MerStopParConjunction::dyn_id)}; }
};
struct MerStopParConjunct {
    static constexpr std::uint16_t tag = 102;
    static constexpr std::string_view name = "MER_STOP_PAR_CONJUNCT";
    std::uint64_t dyn_id = 0;
    static constexpr auto fields() { return std::tuple{field("dyn_id", &MerStopParConjunct::dyn_id)}; }
};
struct MerCreateSpark {
    static constexpr std::uint16_t tag = 103;
    static constexpr std::string_view name = "MER_CREATE_SPARK";
    std::uint64_t dyn_id = 0;
    std::uint32_t spark_id = 0;
    static constexpr auto fields() {
        return std::tuple{field("dyn_id", &MerCreateSpark::dyn_id), field("spark_id", &MerCreateSpark::spark_id)};
    }
};
struct MerFutCreate {
    static constexpr std::uint16_t tag = 104;
    static constexpr std::string_view name = "MER_FUT_CREATE";
    std::uint64_t future = 0;
    std::uint32_t name_id = 0;  // an INTERN_STRING id
    static constexpr auto fields() {
        return std::tuple{field("future", &MerFutCreate::future), field("name_id", &MerFutCreate::name_id)};
    }
};
struct MerFutWaitNosuspend {
    static constexpr std::uint16_t tag = 105;
    static constexpr std::string_view name = "MER_FUT_WAIT_NOSUSPEND";
    std::uint64_t future = 0;
    static constexpr auto fields() { return std::tuple{field("future", &MerFutWaitNosuspend::future)}; }
};
struct MerFutWaitSuspended {
    static constexpr std::uint16_t tag = 106;
    static constexpr std::string_view name = "MER_FUT_WAIT_SUSPENDED";
    std::uint64_t future = 0;
    static constexpr auto fields() { return std::tuple{field("future", &MerFutWaitSuspended::future)}; }
};
struct MerFutSignal {
    static constexpr std::uint16_t tag = 107;
    static constexpr std::string_view name = "MER_FUT_SIGNAL";
    std::uint64_t future = 0;
    static constexpr auto fields() { return std::tuple{field("future", &MerFutSignal::future)}; }
};
struct MerLookingForGlobalContext {
    static constexpr std::uint16_t tag = 108;
    static constexpr std::string_view name = "MER_LOOKING_FOR_GLOBAL_CONTEXT";
    static constexpr auto fields() { return std::tuple{}; }
};
struct MerWorkStealing {
    static constexpr std::uint16_t tag = 109;
    static constexpr std::string_view name = "MER_WORK_STEALING";
    static constexpr auto fields() { return std::tuple{}; }
};
struct MerReleaseContext {
    static constexpr std::uint16_t tag = 110;
    static constexpr std::string_view name = "MER_RELEASE_CONTEXT";
    ThreadId thread = 0;
    static constexpr auto fields() { return std::tuple{field("thread", &MerReleaseContext::thread)}; }
};
struct MerEngineSleeping {
    static constexpr std::uint16_t tag = 111;
    static constexpr std::string_view name = "MER_ENGINE_SLEEPING";
    static constexpr auto fields() { return std::tuple{}; }
};
struct MerLookingForLocalSpark {
    static constexpr std::uint16_t tag = 112;
    static constexpr std::string_view name = "MER_LOOKING_FOR_LOCAL_SPARK";
    static constexpr auto fields() { return std::tuple{}; }
};
struct MerCallingMain {
    static constexpr std::uint16_t tag = 113;
    static constexpr std::string_view name = "MER_CALLING_MAIN";
    static constexpr auto fields() { return std::tuple{}; }
};

// ---- Linux perf events (added by ghc-events-perf, not by GHC) -------------------------

struct PerfName {
    static constexpr std::uint16_t tag = 140;
    static constexpr std::string_view name = "PERF_NAME";
    std::uint32_t perf_num = 0;
    Text perf_name;
    static constexpr auto fields() {
        return std::tuple{field("perf_num", &PerfName::perf_num), field("perf_name", &PerfName::perf_name)};
    }
};
struct PerfCounter {
    static constexpr std::uint16_t tag = 141;
    static constexpr std::string_view name = "PERF_COUNTER";
    std::uint32_t perf_num = 0;
    std::uint64_t tid = 0;     // OS kernel thread id
    std::uint64_t period = 0;  // the counter went up by period + 1
    static constexpr auto fields() {
        return std::tuple{field("perf_num", &PerfCounter::perf_num), field("tid", &PerfCounter::tid),
                          field("period", &PerfCounter::period)};
    }
};
struct PerfTracepoint {
    static constexpr std::uint16_t tag = 142;
    static constexpr std::string_view name = "PERF_TRACEPOINT";
    std::uint32_t perf_num = 0;
    std::uint64_t tid = 0;  // OS kernel thread id
    static constexpr auto fields() {
        return std::tuple{field("perf_num", &PerfTracepoint::perf_num), field("tid", &PerfTracepoint::tid)};
    }
};

// ---- Heap and time profiling --------------------------------------------------------

struct HeapProfBegin {
    static constexpr std::uint16_t tag = 160;
    static constexpr std::string_view name = "HEAP_PROF_BEGIN";
    std::uint8_t profile_id = 0;
    std::uint64_t sampling_period = 0;  // ns
    std::uint32_t breakdown = 0;        // 1 -hc, 2 -hm, 3 -hd, 4 -hy, 5 -hr, 6 -hb, 7 -hT, 8 -hi, 9 -he
    CString module_filter, closure_descr_filter, type_descr_filter, cost_centre_filter, cost_centre_stack_filter,
        retainer_filter, biography_filter;
    static constexpr auto fields() {
        return std::tuple{field("profile_id", &HeapProfBegin::profile_id),
                          field("sampling_period", &HeapProfBegin::sampling_period),
                          field("breakdown", &HeapProfBegin::breakdown),
                          field("module_filter", &HeapProfBegin::module_filter),
                          field("closure_descr_filter", &HeapProfBegin::closure_descr_filter),
                          field("type_descr_filter", &HeapProfBegin::type_descr_filter),
                          field("cost_centre_filter", &HeapProfBegin::cost_centre_filter),
                          field("cost_centre_stack_filter", &HeapProfBegin::cost_centre_stack_filter),
                          field("retainer_filter", &HeapProfBegin::retainer_filter),
                          field("biography_filter", &HeapProfBegin::biography_filter)};
    }
};
struct HeapProfCostCentre {
    static constexpr std::uint16_t tag = 161;
    static constexpr std::string_view name = "HEAP_PROF_COST_CENTRE";
    std::uint32_t cost_centre = 0;
    CString label, module, srcloc;
    std::uint8_t flags = 0;  // bit 0: CAF
    static constexpr auto fields() {
        return std::tuple{field("cost_centre", &HeapProfCostCentre::cost_centre),
                          field("label", &HeapProfCostCentre::label), field("module", &HeapProfCostCentre::module),
                          field("srcloc", &HeapProfCostCentre::srcloc), field("flags", &HeapProfCostCentre::flags)};
    }
};
struct HeapProfSampleBegin {
    static constexpr std::uint16_t tag = 162;
    static constexpr std::string_view name = "HEAP_PROF_SAMPLE_BEGIN";
    std::uint64_t era = 0;
    static constexpr auto fields() { return std::tuple{field("era", &HeapProfSampleBegin::era)}; }
};
struct HeapProfSampleCostCentre {  // stack innermost first, MAIN excluded
    static constexpr std::uint16_t tag = 163;
    static constexpr std::string_view name = "HEAP_PROF_SAMPLE_COST_CENTRE";
    std::uint8_t profile_id = 0;
    std::uint64_t residency = 0;
    CostCentreStack stack;
    static constexpr auto fields() {
        return std::tuple{field("profile_id", &HeapProfSampleCostCentre::profile_id),
                          field("residency", &HeapProfSampleCostCentre::residency),
                          field("stack", &HeapProfSampleCostCentre::stack)};
    }
};
struct HeapProfSampleString {
    static constexpr std::uint16_t tag = 164;
    static constexpr std::string_view name = "HEAP_PROF_SAMPLE_STRING";
    std::uint8_t profile_id = 0;
    std::uint64_t residency = 0;
    CString label;
    static constexpr auto fields() {
        return std::tuple{field("profile_id", &HeapProfSampleString::profile_id),
                          field("residency", &HeapProfSampleString::residency),
                          field("label", &HeapProfSampleString::label)};
    }
};
struct HeapProfSampleEnd {
    static constexpr std::uint16_t tag = 165;
    static constexpr std::string_view name = "HEAP_PROF_SAMPLE_END";
    std::uint64_t era = 0;
    static constexpr auto fields() { return std::tuple{field("era", &HeapProfSampleEnd::era)}; }
};
struct HeapBioProfSampleBegin {  // written at the end of the log; `time` places it
    static constexpr std::uint16_t tag = 166;
    static constexpr std::string_view name = "HEAP_BIO_PROF_SAMPLE_BEGIN";
    std::uint64_t era = 0;
    std::uint64_t time = 0;
    static constexpr auto fields() {
        return std::tuple{field("era", &HeapBioProfSampleBegin::era), field("time", &HeapBioProfSampleBegin::time)};
    }
};
// Posted to the global buffer: the capability is in the payload.
struct ProfSampleCostCentre {
    static constexpr std::uint16_t tag = 167;
    static constexpr std::string_view name = "PROF_SAMPLE_COST_CENTRE";
    std::uint32_t cap = 0;
    std::uint64_t ticks = 0;
    CostCentreStack stack;
    static constexpr auto fields() {
        return std::tuple{field("cap", &ProfSampleCostCentre::cap), field("ticks", &ProfSampleCostCentre::ticks),
                          field("stack", &ProfSampleCostCentre::stack)};
    }
};
struct ProfBegin {
    static constexpr std::uint16_t tag = 168;
    static constexpr std::string_view name = "PROF_BEGIN";
    std::uint64_t tick_interval = 0;  // ns
    static constexpr auto fields() { return std::tuple{field("tick_interval", &ProfBegin::tick_interval)}; }
};
struct InfoProv {  // IPE: info-table provenance
    static constexpr std::uint16_t tag = 169;
    static constexpr std::string_view name = "IPE";
    std::uint64_t info = 0;
    CString table_name, closure_desc, ty_desc, label, module, src_loc;
    static constexpr auto fields() {
        return std::tuple{field("info", &InfoProv::info),
                          field("table_name", &InfoProv::table_name),
                          field("closure_desc", &InfoProv::closure_desc),
                          field("ty_desc", &InfoProv::ty_desc),
                          field("label", &InfoProv::label),
                          field("module", &InfoProv::module),
                          field("src_loc", &InfoProv::src_loc)};
    }
};

struct UserBinaryMessage {  // traceBinaryEvent
    static constexpr std::uint16_t tag = 181;
    static constexpr std::string_view name = "USER_BINARY_MSG";
    Bytes payload;
    static constexpr auto fields() { return std::tuple{field("payload", &UserBinaryMessage::payload)}; }
};

// ---- Non-moving collector ---------------------------------------------------------

struct ConcMarkBegin {
    static constexpr std::uint16_t tag = 200;
    static constexpr std::string_view name = "CONC_MARK_BEGIN";
    static constexpr auto fields() { return std::tuple{}; }
};
struct ConcMarkEnd {
    static constexpr std::uint16_t tag = 201;
    static constexpr std::string_view name = "CONC_MARK_END";
    std::uint32_t marked_objects = 0;
    static constexpr auto fields() { return std::tuple{field("marked_objects", &ConcMarkEnd::marked_objects)}; }
};
struct ConcSyncBegin {
    static constexpr std::uint16_t tag = 202;
    static constexpr std::string_view name = "CONC_SYNC_BEGIN";
    static constexpr auto fields() { return std::tuple{}; }
};
struct ConcSyncEnd {
    static constexpr std::uint16_t tag = 203;
    static constexpr std::string_view name = "CONC_SYNC_END";
    static constexpr auto fields() { return std::tuple{}; }
};
struct ConcSweepBegin {
    static constexpr std::uint16_t tag = 204;
    static constexpr std::string_view name = "CONC_SWEEP_BEGIN";
    static constexpr auto fields() { return std::tuple{}; }
};
struct ConcSweepEnd {
    static constexpr std::uint16_t tag = 205;
    static constexpr std::string_view name = "CONC_SWEEP_END";
    static constexpr auto fields() { return std::tuple{}; }
};
struct ConcUpdRemSetFlush {
    static constexpr std::uint16_t tag = 206;
    static constexpr std::string_view name = "CONC_UPD_REM_SET_FLUSH";
    CapNo cap = 0;
    static constexpr auto fields() { return std::tuple{field("cap", &ConcUpdRemSetFlush::cap)}; }
};
// The first field is log2(block size) as a Word8 in the 13-byte form (before GHC
// 9.10) and the block size itself as a Word16 in the 14-byte form: the decoder
// picks the form from the declared size (see payload_decoder.cpp).
struct NonmovingHeapCensus {
    static constexpr std::uint16_t tag = 207;
    static constexpr std::string_view name = "NONMOVING_HEAP_CENSUS";
    std::uint16_t blk_size = 0;  // as written: log2 in the old form, bytes in the new
    bool blk_size_is_log2 = false;
    std::uint32_t active_segs = 0, filled_segs = 0, live_blocks = 0;
    static constexpr auto fields() {
        return std::tuple{field("blk_size", &NonmovingHeapCensus::blk_size),
                          field("active_segs", &NonmovingHeapCensus::active_segs),
                          field("filled_segs", &NonmovingHeapCensus::filled_segs),
                          field("live_blocks", &NonmovingHeapCensus::live_blocks)};
    }
};
struct NonmovingPrunedSegments {
    static constexpr std::uint16_t tag = 208;
    static constexpr std::string_view name = "NONMOVING_PRUNED_SEGMENTS";
    std::uint32_t pruned_segments = 0, free_segments = 0;
    static constexpr auto fields() {
        return std::tuple{field("pruned_segments", &NonmovingPrunedSegments::pruned_segments),
                          field("free_segments", &NonmovingPrunedSegments::free_segments)};
    }
};

// ---- Ticky-ticky profiling ----------------------------------------------------------

// info_table appeared in GHC 9.4, json_desc in 9.6: both present only when the
// payload still has bytes for them.
struct TickyCounterDef {
    static constexpr std::uint16_t tag = 210;
    static constexpr std::string_view name = "TICKY_COUNTER_DEF";
    std::uint64_t counter = 0;
    std::uint16_t arity = 0;
    CString arg_kinds, counter_name;
    std::optional<std::uint64_t> info_table;
    std::optional<CString> json_desc;
    static constexpr auto fields() {
        return std::tuple{
            field("counter", &TickyCounterDef::counter),       field("arity", &TickyCounterDef::arity),
            field("arg_kinds", &TickyCounterDef::arg_kinds),   field("counter_name", &TickyCounterDef::counter_name),
            field("info_table", &TickyCounterDef::info_table), field("json_desc", &TickyCounterDef::json_desc)};
    }
};
struct TickyCounterSample {  // values since the previous sample
    static constexpr std::uint16_t tag = 211;
    static constexpr std::string_view name = "TICKY_COUNTER_SAMPLE";
    std::uint64_t counter = 0, entries = 0, allocs = 0, allocd = 0;
    static constexpr auto fields() {
        return std::tuple{field("counter", &TickyCounterSample::counter),
                          field("entries", &TickyCounterSample::entries), field("allocs", &TickyCounterSample::allocs),
                          field("allocd", &TickyCounterSample::allocd)};
    }
};
struct TickyBeginSample {
    static constexpr std::uint16_t tag = 212;
    static constexpr std::string_view name = "TICKY_COUNTER_BEGIN_SAMPLE";
    static constexpr auto fields() { return std::tuple{}; }
};

// A type declared in the header that this table does not know, or whose payload
// is shorter than the known layout: kept as raw bytes so nothing is lost.
struct UnknownEvent {
    static constexpr std::string_view name = "UNKNOWN";
    Bytes payload;
    bool too_short = false;  // a known tag, but the payload did not hold its fields
};

template <typename... Ts>
struct TypeList {};

// The table: one entry per event type, in tag order.
using AllPayloads =
    TypeList<CreateThread, RunThread, StopThread, ThreadRunnable, MigrateThread, RunSpark, StealSpark, Shutdown,
             WakeupThread, StartGC, EndGC, RequestSeqGC, RequestParGC, CreateSparkThread, LogMsg, Startup, BlockMarker,
             UserMessage, GCIdle, GCWork, GCDone, Version, ProgramInvocation, CapsetCreate, CapsetDelete,
             CapsetAssignCap, CapsetRemoveCap, RtsIdentifier, ProgramArgs, ProgramEnv, OsProcessPid, OsProcessParentPid,
             SparkCounters, SparkCreate, SparkDud, SparkOverflow, SparkRun, SparkSteal, SparkFizzle, SparkGC,
             InternString, WallClockTime, ThreadLabel, CapCreate, CapDelete, CapDisable, CapEnable, HeapAllocated,
             HeapSize, HeapLive, HeapInfoGHC, GCStatsGHC, GlobalSyncGC, TaskCreate, TaskMigrate, TaskDelete, UserMarker,
             HackBugT9003, EdenStartReceive, EdenEndReceive, CreateProcess, KillProcess, AssignThreadToProcess,
             CreateMachine, KillMachine, SendMessage, ReceiveMessage, SendReceiveLocalMessage, MemReturn, BlocksSize,
             MerStartParConjunction, MerStopParConjunction, MerStopParConjunct, MerCreateSpark, MerFutCreate,
             MerFutWaitNosuspend, MerFutWaitSuspended, MerFutSignal, MerLookingForGlobalContext, MerWorkStealing,
             MerReleaseContext, MerEngineSleeping, MerLookingForLocalSpark, MerCallingMain, PerfName, PerfCounter,
             PerfTracepoint, HeapProfBegin, HeapProfCostCentre, HeapProfSampleBegin, HeapProfSampleCostCentre,
             HeapProfSampleString, HeapProfSampleEnd, HeapBioProfSampleBegin, ProfSampleCostCentre, ProfBegin, InfoProv,
             UserBinaryMessage, ConcMarkBegin, ConcMarkEnd, ConcSyncBegin, ConcSyncEnd, ConcSweepBegin, ConcSweepEnd,
             ConcUpdRemSetFlush, NonmovingHeapCensus, NonmovingPrunedSegments, TickyCounterDef, TickyCounterSample,
             TickyBeginSample>;

template <typename List>
struct VariantOf;
template <typename... Ts>
struct VariantOf<TypeList<Ts...>> {
    using type = std::variant<UnknownEvent, Ts...>;
};

using Payload = VariantOf<AllPayloads>::type;

}  // namespace el2fx::eventlog

#include "eventlog/show_text.hpp"

#include <charconv>
#include <concepts>
#include <iterator>
#include <optional>
#include <tuple>
#include <type_traits>
#include <variant>

#include "eventlog/field_io.hpp"
#include "eventlog/payload_decoder.hpp"
#include "util/utf8.hpp"

namespace el2fx::eventlog {
namespace {

// ---- Rendering primitives ------------------------------------------------------
// Every piece is appended straight to the output string: no temporaries.

struct Hex {  // lowercase, unpadded, no prefix
    std::uint64_t value;
};
struct Signed {
    std::int64_t value;
};
struct Utf8Text {  // shown as written, ill-formed bytes as U+FFFD
    std::string_view bytes;
};
struct Latin1Text {  // each byte is the code point of the same value
    std::string_view bytes;
};

void put(std::string& out, std::string_view s) { out.append(s); }
void put(std::string& out, char c) { out.push_back(c); }

template <std::unsigned_integral T>
void put(std::string& out, T v) {
    char buf[20];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, static_cast<std::size_t>(r.ptr - buf));
}

void put(std::string& out, Signed v) {
    char buf[20];
    auto r = std::to_chars(buf, buf + sizeof buf, v.value);
    out.append(buf, static_cast<std::size_t>(r.ptr - buf));
}

void put(std::string& out, Hex v) {
    char buf[16];
    auto r = std::to_chars(buf, buf + sizeof buf, v.value, 16);
    out.append(buf, static_cast<std::size_t>(r.ptr - buf));
}

void put(std::string& out, Utf8Text t) { utf8::append_sanitized(out, t.bytes); }
void put(std::string& out, Latin1Text t) { utf8::append_latin1(out, t.bytes); }

template <typename... Parts>
void put_all(std::string& out, const Parts&... parts) {
    (put(out, parts), ...);
}

Utf8Text text(const Text& t) { return {t.bytes}; }
Utf8Text text(const CString& t) { return {t.bytes}; }

// Haskell's `show` of a String, quotes included (GHC.Show.showLitString): `"` and
// `\` escaped, printable ASCII as is, controls by name, anything above U+007F as a
// decimal escape. `\&` separates an escape from a following character that would
// otherwise extend it: a digit after a numeric escape, an `H` after `\SO`.
void put_haskell_string(std::string& out, std::string_view bytes) {
    static constexpr std::string_view kControlNames[32] = {
        "NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "a",   "b",  "t",  "n",  "v",  "f",  "r",  "SO", "SI",
        "DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM", "SUB", "ESC", "FS", "GS", "RS", "US"};
    auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
    auto* const end = p + bytes.size();
    out.push_back('"');
    while (p < end) {
        const utf8::Step s = utf8::decode(p, end);
        const char32_t c = s.valid ? s.code_point : utf8::kReplacement;
        p += s.length;
        const int next = p < end ? *p : -1;  // the next character, as far as the checks below need it
        if (c >= 0x80) {
            out.push_back('\\');
            put(out, static_cast<std::uint32_t>(c));
            if (next >= '0' && next <= '9') out.append("\\&");
        } else if (c == '"' || c == '\\') {
            out.push_back('\\');
            out.push_back(static_cast<char>(c));
        } else if (c >= 0x20 && c < 0x7F) {
            out.push_back(static_cast<char>(c));
        } else if (c == 0x7F) {
            out.append("\\DEL");
        } else {
            out.push_back('\\');
            out.append(kControlNames[c]);
            if (c == 0x0E && next == 'H') out.append("\\&");
        }
    }
    out.push_back('"');
}

// PROGRAM_ARGS and PROGRAM_ENV as ghc-events shows its [Text]: trailing NULs are
// dropped, the rest is split at each NUL (an empty body is one empty string).
void put_haskell_string_list(std::string& out, std::string_view bytes) {
    while (!bytes.empty() && bytes.back() == '\0') bytes.remove_suffix(1);
    out.push_back('[');
    for (;;) {
        std::size_t nul = bytes.find('\0');
        put_haskell_string(out, bytes.substr(0, nul));
        if (nul == std::string_view::npos) break;
        out.push_back(',');
        bytes.remove_prefix(nul + 1);
    }
    out.push_back(']');
}

// USER_BINARY_MSG: decoded leniently byte by byte (a well-formed sequence is its
// character; any other byte is one '.'), then every character that is not
// printable (Haskell's isPrint) becomes '.' too.
void put_binary(std::string& out, std::string_view bytes) {
    auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
    auto* const end = p + bytes.size();
    while (p < end) {
        if (*p >= 0x20 && *p < 0x7F) {
            out.push_back(static_cast<char>(*p++));
            continue;
        }
        const utf8::Step s = utf8::decode(p, end);
        if (s.valid && utf8::is_printable(s.code_point)) {
            out.append(reinterpret_cast<const char*>(p), s.length);
            p += s.length;
        } else {
            out.push_back('.');
            p += s.valid ? s.length : 1;
        }
    }
}

void put_stack(std::string& out, const CostCentreStack& stack) {
    for (std::size_t i = 0; i < stack.size(); ++i) {
        if (i > 0) out.append(", ");
        put(out, stack[i]);
    }
}

std::string_view stop_status_text(std::uint16_t status) {
    switch (status) {
        case 0: return "No stop thread status";
        case 1: return "heap overflow";
        case 2: return "stack overflow, size ";
        case 3: return "thread yielding";
        case 5: return "thread finished";
        case 6: return "making a foreign call";
        case 7: return "blocked on an MVar";
        case 8: return "blocked on black hole owned by thread ";
        case 9: return "blocked on I/O read";
        case 10: return "blocked on I/O write";
        case 11: return "blocked on threadDelay";
        case 12: return "blocked in STM retry";
        case 13: return "blocked on asyncDoProc";
        case 18: return "blocked in throwTo";
        case 19: return "No stop thread status";
        case 20: return "blocked reading an MVar";
        default: return {};  // ghc-events 0.21 fails on these (4, 14-17, 21 and up)
    }
}

std::string_view capset_type_text(std::uint16_t type) {
    switch (type) {
        case 1: return "CapsetCustom";
        case 2: return "CapsetOsProcess";
        case 3: return "CapsetClockDomain";
        default: return "CapsetUnknown";
    }
}

std::string_view heap_breakdown_text(std::uint32_t breakdown) {
    // Codes 1-9: -hc -hm -hd -hy -hr -hb -hT -hi -he.
    static constexpr std::string_view kNames[] = {
        "cost centre", "module",       "closure description", "type description", "retainer",
        "biography",   "closure type", "info table",          "era"};
    return breakdown >= 1 && breakdown <= std::size(kNames) ? kNames[breakdown - 1] : std::string_view{};
}

void put_eden_message_tag(std::string& out, std::uint8_t tag) {
    // Eden's message tags are 0x50 and up, in this order.
    static constexpr std::string_view kNames[] = {"Ready", "NewPE",  "PETIDS",  "Finish", "FailPE",
                                                  "RFork", "Connect", "DataMes", "Head",   "Constr",
                                                  "Part",  "Terminate", "Packet"};
    const auto index = static_cast<std::uint8_t>(tag - 0x50);
    if (index < std::size(kNames)) {
        out.append(kNames[index]);
    } else {
        put_all(out, "unknown 0x", Hex{tag});  // ghc-events 0.21 fails here
    }
}

// ---- One template per payload type (ghc-events' showEventInfo) ----------------------

void print(std::string& out, const CreateThread& e) { put_all(out, "creating thread ", e.thread); }
void print(std::string& out, const RunThread& e) { put_all(out, "running thread ", e.thread); }
void print(std::string& out, const StopThread& e) {
    put_all(out, "stopping thread ", e.thread, " (");
    std::string_view status = stop_status_text(e.status);
    if (status.empty()) {
        put_all(out, "unknown stop status ", e.status);
    } else {
        out.append(status);
        if (e.status == 2 || e.status == 8) put(out, e.blocker.value_or(0));
    }
    out.push_back(')');
}
void print(std::string& out, const ThreadRunnable& e) { put_all(out, "thread ", e.thread, " is runnable"); }
void print(std::string& out, const MigrateThread& e) {
    put_all(out, "migrating thread ", e.thread, " to cap ", e.new_cap);
}
void print(std::string& out, const WakeupThread& e) {
    put_all(out, "waking up thread ", e.thread, " on cap ", e.other_cap);
}
void print(std::string& out, const StartGC&) { out.append("starting GC"); }
void print(std::string& out, const EndGC&) { out.append("finished GC"); }
void print(std::string& out, const RequestSeqGC&) { out.append("requesting sequential GC"); }
void print(std::string& out, const RequestParGC&) { out.append("requesting parallel GC"); }
void print(std::string& out, const CreateSparkThread& e) { put_all(out, "creating spark thread ", e.spark_thread); }
void print(std::string& out, const LogMsg& e) { put(out, text(e.message)); }
void print(std::string& out, const Startup& e) { put_all(out, "startup: ", e.n_caps, " capabilities"); }
void print(std::string& out, const BlockMarker& e) {
    put_all(out, "event block: cap ", e.cap, ", end time: ", e.end_time, '\n');
}
void print(std::string& out, const UserMessage& e) { put(out, text(e.message)); }
void print(std::string& out, const GCIdle&) { out.append("GC idle"); }
void print(std::string& out, const GCWork&) { out.append("GC working"); }
void print(std::string& out, const GCDone&) { out.append("GC done"); }
void print(std::string& out, const Version& e) {
    put_all(out, "compiler version is ", Latin1Text{e.version.bytes});
}
void print(std::string& out, const ProgramInvocation& e) {
    put_all(out, "program invocation: ", Latin1Text{e.command_line.bytes});
}
void print(std::string& out, const CapsetCreate& e) {
    put_all(out, "created capset ", e.capset, " of type ", capset_type_text(e.type));
}
void print(std::string& out, const CapsetDelete& e) { put_all(out, "deleted capset ", e.capset); }
void print(std::string& out, const CapsetAssignCap& e) {
    put_all(out, "assigned cap ", e.cap, " to capset ", e.capset);
}
void print(std::string& out, const CapsetRemoveCap& e) {
    put_all(out, "removed cap ", e.cap, " from capset ", e.capset);
}
void print(std::string& out, const RtsIdentifier& e) {
    put_all(out, "capset ", e.capset, ": RTS version \"", text(e.identifier), '"');
}
void print(std::string& out, const ProgramArgs& e) {
    put_all(out, "capset ", e.capset, ": args: ");
    put_haskell_string_list(out, e.args.bytes);
}
void print(std::string& out, const ProgramEnv& e) {
    put_all(out, "capset ", e.capset, ": env: ");
    put_haskell_string_list(out, e.env.bytes);
}
void print(std::string& out, const OsProcessPid& e) { put_all(out, "capset ", e.capset, ": pid ", e.pid); }
void print(std::string& out, const OsProcessParentPid& e) {
    put_all(out, "capset ", e.capset, ": parent pid ", e.ppid);
}
void print(std::string& out, const SparkCounters& e) {
    put_all(out, "spark stats: ", e.created, " created, ", e.converted, " converted, ", e.remaining, " remaining (",
            e.overflowed, " overflowed, ", e.dud, " dud, ", e.gcd, " GC'd, ", e.fizzled, " fizzled)");
}
void print(std::string& out, const SparkCreate&) { out.append("spark created"); }
void print(std::string& out, const SparkDud&) { out.append("dud spark discarded"); }
void print(std::string& out, const SparkOverflow&) { out.append("overflowed spark discarded"); }
void print(std::string& out, const SparkRun&) { out.append("running a local spark"); }
void print(std::string& out, const SparkSteal& e) { put_all(out, "stealing a spark from cap ", e.victim_cap); }
void print(std::string& out, const SparkFizzle&) { out.append("spark fizzled"); }
void print(std::string& out, const SparkGC&) { out.append("spark GCed"); }
void print(std::string& out, const InternString& e) {
    put_all(out, "Interned string: \"", Latin1Text{e.string.bytes}, "\" with id ", e.id);
}
void print(std::string& out, const WallClockTime& e) {
    put_all(out, "capset ", e.capset, ": wall clock time ", e.sec, "s ", e.nsec, "ns (unix epoch)");
}
void print(std::string& out, const ThreadLabel& e) {
    put_all(out, "thread ", e.thread, " has label \"", text(e.label), '"');
}
void print(std::string& out, const CapCreate& e) { put_all(out, "created cap ", e.cap); }
void print(std::string& out, const CapDelete& e) { put_all(out, "deleted cap ", e.cap); }
void print(std::string& out, const CapDisable& e) { put_all(out, "disabled cap ", e.cap); }
void print(std::string& out, const CapEnable& e) { put_all(out, "enabled cap ", e.cap); }
void print(std::string& out, const HeapAllocated& e) {
    put_all(out, "allocated on heap capset ", e.heap_capset, ": ", e.alloc_bytes, " total bytes till now");
}
void print(std::string& out, const HeapSize& e) {
    put_all(out, "size of heap capset ", e.heap_capset, ": ", e.size_bytes, " bytes");
}
void print(std::string& out, const HeapLive& e) {
    put_all(out, "live data in heap capset ", e.heap_capset, ": ", e.live_bytes, " bytes");
}
void print(std::string& out, const HeapInfoGHC& e) {
    put_all(out, "heap stats for heap capset ", e.heap_capset, ": generations ", e.gens, ", ", e.max_heap_size,
            " bytes max heap size, ", e.alloc_area_size, " bytes alloc area size, ", e.mblock_size,
            " bytes mblock size, ", e.block_size, " bytes block size");
}
void print(std::string& out, const GCStatsGHC& e) {
    put_all(out, "GC stats for heap capset ", e.heap_capset, ": generation ", e.gen, ", ", e.copied, " bytes copied, ",
            e.slop, " bytes slop, ", e.frag, " bytes fragmentation, ", e.par_n_threads, " par threads, ",
            e.par_max_copied, " bytes max par copied, ", e.par_tot_copied, " bytes total par copied");
    if (e.par_balanced_copied) put_all(out, ", ", *e.par_balanced_copied, " bytes balanced par copied");
}
void print(std::string& out, const GlobalSyncGC&) { out.append("all caps stopped for GC"); }
void print(std::string& out, const TaskCreate& e) {
    put_all(out, "task 0x", Hex{e.task}, " created on cap ", e.cap, " with OS kernel thread ", e.tid);
}
void print(std::string& out, const TaskMigrate& e) {
    put_all(out, "task 0x", Hex{e.task}, " migrated from cap ", e.cap, " to cap ", e.new_cap);
}
void print(std::string& out, const TaskDelete& e) { put_all(out, "task 0x", Hex{e.task}, " deleted"); }
void print(std::string& out, const UserMarker& e) { put_all(out, "marker: ", text(e.marker)); }

void print(std::string& out, const EdenStartReceive&) { out.append("starting to receive"); }
void print(std::string& out, const EdenEndReceive&) { out.append("stop receiving"); }
void print(std::string& out, const CreateProcess& e) { put_all(out, "creating process ", e.process); }
void print(std::string& out, const KillProcess& e) { put_all(out, "killing process ", e.process); }
void print(std::string& out, const AssignThreadToProcess& e) {
    put_all(out, "assigning thread ", e.thread, " to process ", e.process);
}
void print(std::string& out, const CreateMachine& e) {
    put_all(out, "creating machine ", e.machine, " at ", e.realtime);
}
void print(std::string& out, const KillMachine& e) { put_all(out, "killing machine ", e.machine); }
void print(std::string& out, const SendMessage& e) {
    out.append("sending message with tag ");
    put_eden_message_tag(out, e.message_tag);
    put_all(out, " from process ", e.sender_process, ", thread ", e.sender_thread, " to machine ",
            e.receiver_machine, ", process ", e.receiver_process, " on inport ", e.receiver_inport);
}
void print(std::string& out, const ReceiveMessage& e) {
    out.append("receiving message with tag ");
    put_eden_message_tag(out, e.message_tag);
    put_all(out, " at process ", e.receiver_process, ", inport ", e.receiver_inport, " from machine ",
            e.sender_machine, ", process ", e.sender_process, ", thread ", e.sender_thread, " with size ",
            e.message_size);
}
void print(std::string& out, const SendReceiveLocalMessage& e) {
    out.append("sending/receiving message with tag ");
    put_eden_message_tag(out, e.message_tag);
    put_all(out, " from process ", e.sender_process, ", thread ", e.sender_thread, " to process ",
            e.receiver_process, " on inport ", e.receiver_inport);
}

void print(std::string& out, const MemReturn& e) {
    put_all(out, "memory returned (mblocks): current(", e.current, ") needed(", e.needed, ") returned(", e.returned,
            ')');
}
void print(std::string& out, const BlocksSize& e) {
    put_all(out, "blocks size of heap capset ", e.heap_capset, ": ", e.size_bytes, " bytes");
}

void print(std::string& out, const MerStartParConjunction& e) {
    put_all(out, "Start a parallel conjunction 0x", Hex{e.dyn_id}, ", static_id: ", e.static_id);
}
void print(std::string& out, const MerStopParConjunction& e) {
    put_all(out, "End par conjunction: 0x", Hex{e.dyn_id});
}
void print(std::string& out, const MerStopParConjunct& e) { put_all(out, "End par conjunct: 0x", Hex{e.dyn_id}); }
void print(std::string& out, const MerCreateSpark& e) {
    put_all(out, "Create spark for conjunction: 0x", Hex{e.dyn_id}, " spark: 0x", Hex{e.spark_id});
}
void print(std::string& out, const MerFutCreate& e) {
    put_all(out, "Create future 0x", Hex{e.future}, " named ", e.name_id);
}
void print(std::string& out, const MerFutWaitNosuspend& e) {
    put_all(out, "Wait didn't suspend for future: 0x", Hex{e.future});
}
void print(std::string& out, const MerFutWaitSuspended& e) {
    put_all(out, "Wait suspended on future: 0x", Hex{e.future});
}
void print(std::string& out, const MerFutSignal& e) { put_all(out, "Signaled future 0x", Hex{e.future}); }
void print(std::string& out, const MerLookingForGlobalContext&) {
    out.append("Looking for global thread to resume");
}
void print(std::string& out, const MerWorkStealing&) { out.append("Trying to steal a spark"); }
void print(std::string& out, const MerReleaseContext& e) {
    put_all(out, "Releasing thread ", e.thread, " to the free pool");
}
void print(std::string& out, const MerEngineSleeping&) { out.append("Capability going to sleep"); }
void print(std::string& out, const MerLookingForLocalSpark&) { out.append("Looking for a local spark to execute"); }
void print(std::string& out, const MerCallingMain&) { out.append("About to call the program entry point"); }

void print(std::string& out, const PerfName& e) {
    put_all(out, "perf event ", e.perf_num, " named \"", text(e.perf_name), '"');
}
void print(std::string& out, const PerfCounter& e) {
    put_all(out, "perf event counter ", e.perf_num, " incremented by ", e.period + 1, " in OS thread ", e.tid);
}
void print(std::string& out, const PerfTracepoint& e) {
    put_all(out, "perf event tracepoint ", e.perf_num, " reached in OS thread ", e.tid);
}

void print(std::string& out, const HeapProfBegin& e) {
    put_all(out, "start heap profiling ", e.profile_id, " at sampling period ", e.sampling_period,
            " broken down by ");
    std::string_view breakdown = heap_breakdown_text(e.breakdown);
    if (breakdown.empty()) {
        put_all(out, "unknown breakdown ", e.breakdown);  // ghc-events 0.21 fails here
    } else {
        out.append(breakdown);
    }
    const CString* filters[] = {&e.module_filter,      &e.closure_descr_filter,     &e.type_descr_filter,
                                &e.cost_centre_filter, &e.cost_centre_stack_filter, &e.retainer_filter,
                                &e.biography_filter};
    bool any = false;
    for (const CString* f : filters) {
        if (f->bytes.empty()) continue;
        if (!any) out.append(" filtered by ");
        any = true;
        put_all(out, text(*f), ", ");  // ", " after each one, the last included
    }
}
void print(std::string& out, const HeapProfCostCentre& e) {
    put_all(out, "cost centre ", e.cost_centre, ' ', text(e.label), " in ", text(e.module), " at ", text(e.srcloc));
    if (e.flags & 1) out.append(" CAF");
}
void print(std::string& out, const HeapProfSampleBegin& e) { put_all(out, "start heap prof sample ", e.era); }
void print(std::string& out, const HeapProfSampleCostCentre& e) {
    put_all(out, "heap prof sample ", e.profile_id, ", residency ", e.residency, ", cost centre stack ");
    put_stack(out, e.stack);
}
void print(std::string& out, const HeapProfSampleString& e) {
    put_all(out, "heap prof sample ", e.profile_id, ", residency ", e.residency, ", label ", text(e.label));
}
void print(std::string& out, const HeapProfSampleEnd& e) { put_all(out, "end prof sample ", e.era); }
void print(std::string& out, const HeapBioProfSampleBegin& e) {
    put_all(out, "start heap prof sample ", e.era, " at time ", e.time);
}
void print(std::string& out, const ProfSampleCostCentre& e) {
    // ghc-events reads the Word32 cap as an Int32 and keeps its low 16 bits.
    put_all(out, "cap no ", static_cast<std::uint16_t>(e.cap), ", prof sample ", e.ticks, ", cost centre stack ");
    put_stack(out, e.stack);
}
void print(std::string& out, const ProfBegin& e) {
    put_all(out, "start time profiling, tick interval ", e.tick_interval, " (ns)");
}
void print(std::string& out, const InfoProv& e) {
    put_all(out, "Info Table: ", Hex{e.info}, ':');
    // The closure type: the leading decimal digits, read as a wrapping 64-bit Int.
    std::string_view desc = e.closure_desc.bytes;
    std::uint64_t value = 0;
    std::size_t digits = 0;
    while (digits < desc.size() && desc[digits] >= '0' && desc[digits] <= '9')
        value = value * 10 + static_cast<std::uint64_t>(desc[digits++] - '0');
    if (digits > 0) {
        put(out, Signed{static_cast<std::int64_t>(value)});
    } else {
        put(out, text(e.closure_desc));  // ghc-events 0.21 fails here
    }
    put_all(out, ':', text(e.table_name), " - ", text(e.src_loc));
}
void print(std::string& out, const UserBinaryMessage& e) {
    out.append("binary message ");
    put_binary(out, e.payload.bytes);
}
void print(std::string& out, const ConcMarkBegin&) { out.append("concurrent mark began"); }
void print(std::string& out, const ConcMarkEnd& e) {
    put_all(out, "concurrent mark ended: marked ", e.marked_objects, " objects");
}
void print(std::string& out, const ConcSyncBegin&) { out.append("post-mark synchronization began"); }
void print(std::string& out, const ConcSyncEnd&) { out.append("post-mark synchronization ended"); }
void print(std::string& out, const ConcSweepBegin&) { out.append("concurrent sweep began"); }
void print(std::string& out, const ConcSweepEnd&) { out.append("concurrent sweep ended"); }
void print(std::string& out, const ConcUpdRemSetFlush& e) { put_all(out, "update remembered set flushed by ", e.cap); }
void print(std::string& out, const NonmovingHeapCensus& e) {
    // The 13-byte form holds log2 of the block size; ghc-events keeps it as a Word16.
    std::uint16_t blk = e.blk_size;
    if (e.blk_size_is_log2) blk = e.blk_size < 16 ? static_cast<std::uint16_t>(1u << e.blk_size) : 0;
    put_all(out, "nonmoving heap census ", blk, ": ", e.active_segs, " active segments, ", e.filled_segs,
            " filled segments, ", e.live_blocks, " live blocks");
}
void print(std::string& out, const NonmovingPrunedSegments& e) {
    put_all(out, "nonmoving segments pruned: ", e.pruned_segments, " pruned segments, ", e.free_segments,
            " free segments retained");
}
void print(std::string& out, const TickyCounterDef& e) {
    // The JSON description (GHC 9.6+) is not shown.
    put_all(out, "ticky counter definition ", e.counter, ", arity: ", e.arity, ", def kinds: ", text(e.arg_kinds),
            ", name: ", text(e.counter_name), ", itbl: ", Hex{e.info_table.value_or(0)});
}
void print(std::string& out, const TickyCounterSample& e) {
    put_all(out, "ticky counter sample ", e.counter, ": entry count: ", e.entries, ", ", e.allocs, " allocs, ",
            e.allocd, " allocd");
}
void print(std::string& out, const TickyBeginSample&) { out.append("ticky begin counter sample"); }

// ---- Which events ghc-events 0.21 prints by the header's description ----------------

template <typename T>
constexpr bool show_description_only() {
    if constexpr (requires { T::show_description_only; }) return T::show_description_only;
    else return false;
}

template <typename T>
constexpr bool show_needs_every_field() {
    if constexpr (requires { T::show_needs_every_field; }) return T::show_needs_every_field;
    else return false;
}

template <typename S, typename M>
constexpr bool is_variable_width(Field<S, M>) {
    return field_io::fixed_width<M>() == 0;
}

// A type with a string or list field has only a variable-size parser in ghc-events;
// any other only fixed-size ones.
template <typename T>
constexpr bool is_variable_size() {
    return std::apply([](auto... f) { return (is_variable_width(f) || ... || false); }, T::fields());
}

template <typename M>
bool is_present(const M&) {
    return true;
}
template <typename M>
bool is_present(const std::optional<M>& v) {
    return v.has_value();
}

template <typename T>
bool every_field_present(const T& p) {
    return std::apply([&](auto... f) { return (is_present(p.*(f.member)) && ... && true); }, T::fields());
}

// False when ghc-events 0.21 has no parser for the event as the header declares it.
template <typename T>
bool parsed_by_ghc_events(const T& payload, std::uint16_t tag, const Header* header) {
    if constexpr (show_needs_every_field<T>())
        if (!every_field_present(payload)) return false;
    return !header || (header->size_of(tag) == Header::kVariable) == is_variable_size<T>();
}

void put_description(std::string& out, std::uint16_t tag, const Header* header) {
    if (header) {
        if (const EventTypeDecl* decl = header->find(tag)) {
            put(out, Utf8Text{decl->description});
            return;
        }
    }
    std::string_view name = tag_name(tag);
    if (name.empty()) {
        put_all(out, "event type ", tag);
    } else {
        out.append(name);
    }
}

void append_event(std::string& out, const Event& event, const Header* header) {
    put_all(out, event.time, ": ");
    if (event.cap) put_all(out, "cap ", *event.cap, ": ");
    std::visit(
        [&](const auto& payload) {
            using T = std::remove_cvref_t<decltype(payload)>;
            if constexpr (std::is_same_v<T, UnknownEvent> || show_description_only<T>()) {
                put_description(out, event.tag, header);
            } else if (parsed_by_ghc_events(payload, event.tag, header)) {
                print(out, payload);
            } else {
                put_description(out, event.tag, header);
            }
        },
        event.payload);
    out.push_back('\n');
}

}  // namespace

void append_header_text(std::string& out, const Header& header) {
    out.append("Event Types:\n");
    for (const EventTypeDecl& t : header.types()) {
        put_all(out, t.tag, ": ", Utf8Text{t.description});
        if (t.size) {
            put_all(out, " (size ", *t.size, ")\n");
        } else {
            out.append(" (size variable)\n");
        }
    }
    out.append("\nEvents:\n");
}

void append_event_text(std::string& out, const Event& event, const Header& header) {
    append_event(out, event, &header);
}

void append_event_text(std::string& out, const Event& event) { append_event(out, event, nullptr); }

}  // namespace el2fx::eventlog

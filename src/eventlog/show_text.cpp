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
#include "eventlog/show_text_pieces.hpp"
#include "util/utf8.hpp"

namespace el2fx::eventlog {
namespace {

using namespace show_text_detail;

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
void print(std::string& out, const Version& e) { put_all(out, "compiler version is ", Latin1Text{e.version.bytes}); }
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
    put_all(out, " from process ", e.sender_process, ", thread ", e.sender_thread, " to machine ", e.receiver_machine,
            ", process ", e.receiver_process, " on inport ", e.receiver_inport);
}
void print(std::string& out, const ReceiveMessage& e) {
    out.append("receiving message with tag ");
    put_eden_message_tag(out, e.message_tag);
    put_all(out, " at process ", e.receiver_process, ", inport ", e.receiver_inport, " from machine ", e.sender_machine,
            ", process ", e.sender_process, ", thread ", e.sender_thread, " with size ", e.message_size);
}
void print(std::string& out, const SendReceiveLocalMessage& e) {
    out.append("sending/receiving message with tag ");
    put_eden_message_tag(out, e.message_tag);
    put_all(out, " from process ", e.sender_process, ", thread ", e.sender_thread, " to process ", e.receiver_process,
            " on inport ", e.receiver_inport);
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
void print(std::string& out, const MerStopParConjunction& e) { put_all(out, "End par conjunction: 0x", Hex{e.dyn_id}); }
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
void print(std::string& out, const MerLookingForGlobalContext&) { out.append("Looking for global thread to resume"); }
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
    put_all(out, "start heap profiling ", e.profile_id, " at sampling period ", e.sampling_period, " broken down by ");
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
    if constexpr (requires { T::show_description_only; })
        return T::show_description_only;
    else
        return false;
}

template <typename T>
constexpr bool show_needs_every_field() {
    if constexpr (requires { T::show_needs_every_field; })
        return T::show_needs_every_field;
    else
        return false;
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

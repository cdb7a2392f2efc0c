// eventlog-tile: makes a large eventlog out of a real one by laying K copies of its
// events one after another in time. For benchmarks only (tools/gen-large-eventlog.sh
// --tile-to); not installed.
//
//   eventlog-tile [--copies K | --size-mb N] [--verbose] IN OUT
//
// --size-mb N picks the K whose output comes nearest to N * 1,000,000 bytes (at least 1;
// default --copies 2): the size goes in steps of IN's size. The output is:
//   - IN's header, byte for byte (the same event types, sizes and descriptions);
//   - for copy k = 0 .. K-1, every block of IN in file order: its BLOCK_MARKER re-stamped
//     (its time and declared end time shifted, its size recomputed, its capability kept)
//     and its events with
//       * the timestamp shifted by k * D, where D is IN's last time (the latest event or
//         block end) plus 1 us, so each copy starts after the previous one ends;
//       * every Haskell thread id shifted by k * T, T being IN's largest thread id, so
//         the threads of each copy are new threads, as GHC never reuses an id in a run.
//         Thread-id fields are found in the event table (src/eventlog/event_types.hpp),
//         not listed here: every field of type ThreadId whose name is "thread", "blocker"
//         or ends in "_thread", at a fixed offset (no string before it). For GHC's events
//         that is CREATE_THREAD, RUN_THREAD, STOP_THREAD (thread and the black hole's
//         owner), THREAD_RUNNABLE, MIGRATE_THREAD, THREAD_WAKEUP, CREATE_SPARK_THREAD,
//         THREAD_LABEL (and the pre-7.4 spark events). A zero stays zero ("no thread");
//       * the cumulative counters continued: HEAP_ALLOCATED (per capability, as GHC writes it) and the first six
//         SPARK_COUNTERS fields (per capability) get k times IN's last value added, so
//         they never run backwards;
//   - the one-off events only once: those of the start (RTS_IDENTIFIER, PROGRAM_ARGS,
//     PROGRAM_ENV, OSPROCESS_PID/PPID, CAPSET_CREATE, CAPSET_ASSIGN_CAP, CAP_CREATE,
//     WALL_CLOCK_TIME, HEAP_INFO_GHC, the profiling and ticky definitions, ...) in copy 0,
//     those of the end (CAP_DELETE, CAPSET_REMOVE_CAP, CAPSET_DELETE) in copy K-1; a block
//     left with no events is dropped;
//   - the end-of-data marker.
//
// Limits (it is a benchmark input, not a run GHC could have written):
//   - the run looks like K runs of the program back to back in one process: the RTS's
//     own threads (IOManager, TimerManager) are new threads in every copy, tasks
//     (TASK_CREATE/TASK_DELETE, with IN's OS thread ids) are created and deleted again in
//     every copy, user markers and messages repeat (a "minute 3" marker appears K
//     times), and HEAP_SIZE, HEAP_LIVE and GC statistics start over each copy;
//   - WALL_CLOCK_TIME is IN's, so absolute times are right for copy 0 only;
//   - the wall-clock span is K * D: a copy of a 10 s log makes 10 s more, whatever the size;
//   - IN must be a whole eventlog (its end-of-data marker; a truncated IN is tiled up to
//     its last complete event) with no damage: damaged blocks are not resynchronised, the
//     tool stops with an error at a record it cannot frame;
//   - events of types this table does not know, or laid out so that a thread id follows
//     a string, are copied with only their time shifted;
//   - K * T must fit in 32 bits (thread ids are Word32).
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "eventlog/byte_reader.hpp"
#include "eventlog/event_types.hpp"
#include "eventlog/field_io.hpp"
#include "eventlog/header.hpp"
#include "eventlog/payload_decoder.hpp"
#include "eventlog/push_decoder.hpp"
#include "util/error.hpp"

namespace {

using namespace el2fx::eventlog;

constexpr std::uint16_t kEndOfData = 0xFFFF;
constexpr std::size_t kRecordHead = 10;  // tag (2) + time (8)

// ---- Thread-id fields, from the event table --------------------------------------------

constexpr bool is_thread_field_name(std::string_view name) {
    return name == "thread" || name == "blocker" || name.ends_with("_thread");
}

// Payload offsets of the thread-id fields, by tag.
struct ThreadFields {
    std::array<std::vector<std::uint16_t>, 65536> offsets;
};

template <typename T>
void add_thread_fields(ThreadFields& out) {
    std::size_t offset = 0;
    bool fixed = true;  // every field so far has a fixed width
    std::apply(
        [&](auto... f) {
            [[maybe_unused]] auto one = [&](auto fld) {
                using M = std::remove_cvref_t<decltype(std::declval<T&>().*(fld.member))>;
                constexpr std::size_t width = field_io::fixed_width<M>();
                constexpr bool is_tid = std::is_same_v<M, ThreadId> || std::is_same_v<M, std::optional<ThreadId>>;
                if (is_tid && fixed && is_thread_field_name(fld.name))
                    out.offsets[T::tag].push_back(static_cast<std::uint16_t>(offset));
                if (width == 0) fixed = false;
                offset += width;
            };
            (one(f), ...);
        },
        T::fields());
}

template <typename... Ts>
void add_all(ThreadFields& out, TypeList<Ts...>) {
    (add_thread_fields<Ts>(out), ...);
}

// ---- One-off events ---------------------------------------------------------------------

enum class Once { no, first_copy, last_copy };

std::array<Once, 65536> one_off_table() {
    std::array<Once, 65536> t{};
    t.fill(Once::no);
    for (std::uint16_t tag :
         {RtsIdentifier::tag, ProgramArgs::tag, ProgramEnv::tag, OsProcessPid::tag, OsProcessParentPid::tag,
          CapsetCreate::tag, CapsetAssignCap::tag, CapCreate::tag, WallClockTime::tag, HeapInfoGHC::tag,
          Startup::tag, Version::tag, ProgramInvocation::tag, ProfBegin::tag, HeapProfBegin::tag,
          HeapProfCostCentre::tag, InternString::tag, InfoProv::tag, PerfName::tag, TickyCounterDef::tag})
        t[tag] = Once::first_copy;
    for (std::uint16_t tag : {CapDelete::tag, CapsetRemoveCap::tag, CapsetDelete::tag, Shutdown::tag})
        t[tag] = Once::last_copy;
    return t;
}

// ---- Helpers ----------------------------------------------------------------------------

void store_be32(std::uint8_t* p, std::uint32_t v) {
    for (int i = 3; i >= 0; --i, v >>= 8) p[i] = static_cast<std::uint8_t>(v);
}
void store_be64(std::uint8_t* p, std::uint64_t v) {
    for (int i = 7; i >= 0; --i, v >>= 8) p[i] = static_cast<std::uint8_t>(v);
}

[[noreturn]] void die(const std::string& message) {
    std::fprintf(stderr, "eventlog-tile: %s\n", message.c_str());
    std::exit(1);
}

// A stretch of IN's data: a block (from its BLOCK_MARKER) or events outside any block.
struct Block {
    std::size_t marker = 0;  // offset of the BLOCK_MARKER record; meaningful if has_marker
    bool has_marker = false;
    std::size_t begin = 0, end = 0;  // the events after the marker
    std::uint16_t cap = 0xFFFF;      // 0xFFFF: the global block (or no block)
};

class Output {
public:
    explicit Output(const char* path) {
        fd_ = ::open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd_ < 0) die(std::string("cannot create ") + path + ": " + std::strerror(errno));
        buffer_.reserve(kFlushAt + 65536);
    }
    std::vector<std::uint8_t>& buffer() { return buffer_; }
    void maybe_flush() {
        if (buffer_.size() >= kFlushAt) flush();
    }
    void flush() {
        std::size_t done = 0;
        while (done < buffer_.size()) {
            ssize_t n = ::write(fd_, buffer_.data() + done, buffer_.size() - done);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) die(std::string("write failed: ") + std::strerror(errno));
            done += static_cast<std::size_t>(n);
        }
        written_ += buffer_.size();
        buffer_.clear();
    }
    void close() {
        flush();
        if (::close(fd_) != 0) die(std::string("close failed: ") + std::strerror(errno));
    }
    std::uint64_t written() const { return written_ + buffer_.size(); }

private:
    static constexpr std::size_t kFlushAt = 32u << 20;
    int fd_ = -1;
    std::vector<std::uint8_t> buffer_;
    std::uint64_t written_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
    std::optional<std::uint64_t> copies_arg, size_mb;
    bool verbose = false;
    std::vector<const char*> paths;
    for (int i = 1; i < argc; ++i) {
        std::string_view a = argv[i];
        if ((a == "--copies" || a == "--size-mb") && i + 1 < argc) {
            char* end = nullptr;
            unsigned long long v = std::strtoull(argv[++i], &end, 10);
            if (!*argv[i] || *end || v == 0) die(std::string(a) + " needs a positive whole number");
            (a == "--copies" ? copies_arg : size_mb) = v;
        } else if (a == "--verbose") {
            verbose = true;
        } else if (a.starts_with("--")) {
            die("unknown option " + std::string(a));
        } else {
            paths.push_back(argv[i]);
        }
    }
    if (paths.size() != 2 || (copies_arg && size_mb)) {
        std::fputs("usage: eventlog-tile [--copies K | --size-mb N] [--verbose] IN OUT\n", stderr);
        return 2;
    }

    static ThreadFields thread_fields;
    add_all(thread_fields, AllPayloads{});
    static const auto once = one_off_table();
    if (verbose)
        for (std::size_t tag = 0; tag < thread_fields.offsets.size(); ++tag)
            for (auto off : thread_fields.offsets[tag])
                std::fprintf(stderr, "thread id: tag %zu %s, payload offset %u\n", tag,
                             std::string(tag_name(static_cast<std::uint16_t>(tag))).c_str(), off);

    // Map IN.
    int fd = ::open(paths[0], O_RDONLY);
    if (fd < 0) die(std::string("cannot open ") + paths[0] + ": " + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0 || st.st_size == 0) die(std::string("cannot read ") + paths[0]);
    const std::size_t in_size = static_cast<std::size_t>(st.st_size);
    void* mapped = ::mmap(nullptr, in_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (mapped == MAP_FAILED) die(std::string("cannot map ") + paths[0] + ": " + std::strerror(errno));
    ::madvise(mapped, in_size, MADV_SEQUENTIAL);
    const auto* in = static_cast<const std::uint8_t*>(mapped);

    Header header;
    std::size_t data_start = 0;
    try {
        auto n = parse_header(in, in_size, header);
        if (!n) die(std::string(paths[0]) + ": incomplete header");
        data_start = *n;
    } catch (const el2fx::Error& e) {
        die(e.what());
    }

    // Pass 1: blocks, the last time, the largest thread id, the counters' last values.
    std::vector<Block> blocks;
    std::uint64_t last_time = 0;
    std::uint32_t max_thread = 0;
    std::map<std::uint64_t, std::uint64_t> last_allocated;                 // by block capability and capset
    std::map<std::uint16_t, std::array<std::uint64_t, 6>> last_sparks;     // by block capability
    bool saw_end = false;
    std::size_t pos = data_start;
    std::size_t block_end = data_start;  // end of the current block
    std::uint64_t events = 0;
    try {
        while (pos < in_size) {
            const std::size_t bound = pos < block_end ? block_end - pos : in_size - pos;
            std::size_t size = record_size(header, in + pos, in_size - pos, pos, bound);
            if (size == 0) {
                saw_end = true;
                break;
            }
            if (size > in_size - pos) break;  // truncated: stop at the last complete event
            const std::uint16_t tag = load_be16(in + pos);
            const std::uint64_t time = load_be64(in + pos + 2);
            const std::uint8_t* payload = in + pos + payload_offset(header, tag);
            const std::size_t payload_size = size - payload_offset(header, tag);
            last_time = std::max(last_time, time);
            if (tag == BlockMarker::tag) {
                if (payload_size < 14) die("a BLOCK_MARKER shorter than 14 bytes at byte " + std::to_string(pos));
                const std::uint32_t bsize = load_be32(payload);
                const std::uint64_t end_time = load_be64(payload + 4);
                if (!blocks.empty()) blocks.back().end = pos;
                Block b;
                b.marker = pos;
                b.has_marker = true;
                b.begin = pos + size;
                b.cap = load_be16(payload + 12);
                blocks.push_back(b);
                block_end = pos + std::max<std::size_t>(bsize, size);
                last_time = std::max(last_time, end_time);
            } else {
                if (blocks.empty() || pos >= block_end) {  // events outside any block
                    if (blocks.empty() || blocks.back().has_marker) {
                        if (!blocks.empty()) blocks.back().end = pos;
                        Block b;
                        b.begin = pos;
                        blocks.push_back(b);
                    }
                    block_end = in_size;
                }
                ++events;
                for (auto off : thread_fields.offsets[tag])
                    if (std::size_t{off} + 4 <= payload_size) max_thread = std::max(max_thread, load_be32(payload + off));
                if (tag == HeapAllocated::tag && payload_size >= 12)
                    last_allocated[std::uint64_t{blocks.back().cap} << 32 | load_be32(payload)] = load_be64(payload + 4);
                if (tag == SparkCounters::tag && payload_size >= 48) {
                    auto& s = last_sparks[blocks.back().cap];
                    for (std::size_t i = 0; i < 6; ++i) s[i] = load_be64(payload + 8 * i);
                }
            }
            pos += size;
        }
    } catch (const el2fx::Error& e) {
        die(std::string(e.what()) + " (eventlog-tile needs an undamaged eventlog)");
    }
    if (!blocks.empty()) blocks.back().end = pos;
    if (!saw_end) std::fprintf(stderr, "eventlog-tile: warning: %s has no end-of-data marker; tiling its %llu complete events\n",
                               paths[0], static_cast<unsigned long long>(events));
    const std::size_t data_bytes = pos - data_start;

    const std::uint64_t shift = last_time + 1000;
    std::uint64_t copies = copies_arg.value_or(2);
    if (size_mb) {
        const std::uint64_t target = *size_mb * 1000000;
        const std::uint64_t per_copy = std::max<std::size_t>(data_bytes, 1);
        copies = target <= data_start + 2 ? 1 : (target - data_start - 2 + per_copy / 2) / per_copy;
        copies = std::max<std::uint64_t>(copies, 1);
    }
    if (max_thread != 0 && copies > (std::uint64_t{1} << 32) / (std::uint64_t{max_thread} + 1))
        die("too many copies: thread ids would pass 2^32");
    if (verbose)
        std::fprintf(stderr, "%s: %zu data bytes, %llu events, %zu blocks, last time %llu ns, largest thread id %u; %llu copies\n",
                     paths[0], data_bytes, static_cast<unsigned long long>(events), blocks.size(),
                     static_cast<unsigned long long>(last_time), max_thread, static_cast<unsigned long long>(copies));

    // Pass 2: the copies.
    struct stat out_st {};
    if (::stat(paths[1], &out_st) == 0 && out_st.st_dev == st.st_dev && out_st.st_ino == st.st_ino)
        die("OUT is IN");
    Output out(paths[1]);
    std::uint64_t written_events = 0;
    out.buffer().insert(out.buffer().end(), in, in + data_start);
    for (std::uint64_t k = 0; k < copies; ++k) {
        const std::uint64_t dt = k * shift;
        const std::uint32_t dtid = static_cast<std::uint32_t>(k * max_thread);
        for (const Block& b : blocks) {
            auto& buf = out.buffer();
            const std::size_t block_start = buf.size();
            if (b.has_marker) {
                buf.insert(buf.end(), in + b.marker, in + b.begin);
            }
            bool any = false;
            for (std::size_t p = b.begin; p < b.end;) {
                const std::size_t size = record_size(header, in + p, b.end - p, p, b.end - p);
                const std::uint16_t tag = load_be16(in + p);
                const Once o = once[tag];
                if ((o == Once::first_copy && k != 0) || (o == Once::last_copy && k + 1 != copies)) {
                    p += size;
                    continue;
                }
                any = true;
                ++written_events;
                const std::size_t at = buf.size();
                buf.insert(buf.end(), in + p, in + p + size);
                std::uint8_t* rec = buf.data() + at;
                if (dt) store_be64(rec + 2, load_be64(rec + 2) + dt);
                if (k != 0) {
                    const std::size_t poff = payload_offset(header, tag);
                    std::uint8_t* payload = rec + poff;
                    const std::size_t payload_size = size - poff;
                    for (auto off : thread_fields.offsets[tag])
                        if (std::size_t{off} + 4 <= payload_size) {
                            const std::uint32_t tid = load_be32(payload + off);
                            if (tid != 0) store_be32(payload + off, tid + dtid);
                        }
                    if (tag == HeapAllocated::tag && payload_size >= 12) {
                        auto it = last_allocated.find(std::uint64_t{b.cap} << 32 | load_be32(payload));
                        if (it != last_allocated.end()) store_be64(payload + 4, load_be64(payload + 4) + k * it->second);
                    }
                    if (tag == SparkCounters::tag && payload_size >= 48) {
                        auto it = last_sparks.find(b.cap);
                        if (it != last_sparks.end())
                            for (std::size_t i = 0; i < 6; ++i)
                                store_be64(payload + 8 * i, load_be64(payload + 8 * i) + k * it->second[i]);
                    }
                }
                p += size;
            }
            if (!any) {  // nothing left in this block in this copy
                buf.resize(block_start);
                continue;
            }
            if (b.has_marker) {
                std::uint8_t* marker = buf.data() + block_start;
                std::uint8_t* payload = marker + payload_offset(header, BlockMarker::tag);
                store_be64(marker + 2, load_be64(marker + 2) + dt);
                store_be32(payload, static_cast<std::uint32_t>(buf.size() - block_start));
                const std::uint64_t end_time = load_be64(payload + 4);
                if (end_time != 0) store_be64(payload + 4, end_time + dt);
            }
            out.maybe_flush();
        }
    }
    out.buffer().push_back(0xFF);
    out.buffer().push_back(0xFF);
    const std::uint64_t total = out.written();
    out.close();
    std::fprintf(stderr, "eventlog-tile: %s: %llu copies of %s, %llu bytes, %llu events, %.3f s of run time\n", paths[1],
                 static_cast<unsigned long long>(copies), paths[0], static_cast<unsigned long long>(total),
                 static_cast<unsigned long long>(written_events), static_cast<double>(shift) * copies / 1e9);
    return 0;
}

#include "eventlog/block_index.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <thread>

#include "eventlog/byte_reader.hpp"
#include "eventlog/file_mapping.hpp"
#include "eventlog/payload_decoder.hpp"
#include "eventlog/push_decoder.hpp"
#include "eventlog/reorder_window.hpp"
#include "eventlog/timestamp_guard.hpp"
#include "util/error.hpp"

namespace el2fx::eventlog {
namespace {

constexpr std::size_t kMarkerPayload = 4 + 8 + 2;  // size, end time, capability
constexpr std::size_t kMarkerRecord = kEventHeader + kMarkerPayload;
constexpr std::size_t kMaxRecord = kEventHeader + 2 + 0xFFFF;  // a variable-size record at its largest
constexpr std::size_t kChunk = 1 << 20;                        // > kMaxRecord
constexpr std::size_t kMaxHeaderBytes = 16 << 20;              // as the decoder allows
static_assert(FileMapping::kLoadStep > kMaxRecord, "a mapped step holds any record");

struct Block {
    std::uint64_t begin = 0, end = 0;
    CapNo cap = 0;
    std::uint64_t start_time = 0, end_time = 0;  // as its marker says
};

// What framing alone can tell of a tag's records inside a block.
enum class TagCheck : std::uint8_t {
    decline,      // never acceptable there (undeclared, unknown, another block marker, too short)
    whole,        // its declared size is enough for every field
    decode_each,  // only decoding tells (variable size, or fields whose length depends on the bytes)
};

bool decodes_whole(std::uint16_t tag, const std::vector<std::uint8_t>& payload) {
    Payload out;
    decode_payload_into(tag, payload.data(), payload.size(), out);
    return !std::holds_alternative<UnknownEvent>(out);
}

std::vector<TagCheck> tag_checks(const Header& header) {
    std::vector<TagCheck> checks(std::size_t{1} << 16, TagCheck::decline);
    for (const EventTypeDecl& decl : header.types()) {
        if (decl.tag == BlockMarker::tag || decl.tag == kEndOfData || !is_known_tag(decl.tag)) continue;
        if (!decl.size) {
            checks[decl.tag] = TagCheck::decode_each;
            continue;
        }
        // A string field reads to its terminator: zeros end it at once, 0xFF never.
        const bool zeros = decodes_whole(decl.tag, std::vector<std::uint8_t>(*decl.size, 0x00));
        const bool ones = decodes_whole(decl.tag, std::vector<std::uint8_t>(*decl.size, 0xFF));
        if (zeros && ones)
            checks[decl.tag] = TagCheck::whole;
        else if (zeros || ones)
            checks[decl.tag] = TagCheck::decode_each;
    }
    return checks;
}

std::optional<std::pair<Header, std::uint64_t>> read_header(const InputFile& input) {
    std::vector<std::uint8_t> bytes(64 << 10);
    for (;;) {
        const std::size_t got = input.read_at(0, bytes.data(), bytes.size());
        Header header;
        try {
            if (auto taken = parse_header(bytes.data(), got, header)) return std::pair{std::move(header), *taken};
        } catch (const Error&) {
            return std::nullopt;  // decoding says where and why
        }
        if (got < bytes.size() || bytes.size() >= kMaxHeaderBytes) return std::nullopt;
        bytes.resize(bytes.size() * 2);
    }
}

// The blocks from `start` to the end-of-data marker, or nullopt if anything else is found.
std::optional<std::vector<Block>> find_blocks(const InputFile& input, std::uint64_t start, std::uint64_t file_size) {
    std::vector<Block> blocks;
    std::uint8_t marker[kMarkerRecord];
    for (std::uint64_t at = start;;) {
        const std::size_t got = input.read_at(at, marker, sizeof marker);
        if (got >= 2 && load_be16(marker) == kEndOfData) {
            if (at + 2 == file_size) return blocks;
            return std::nullopt;  // bytes after the end marker
        }
        if (got < sizeof marker || load_be16(marker) != BlockMarker::tag) return std::nullopt;
        Block b;
        b.begin = at;
        b.start_time = load_be64(marker + 2);
        const std::uint32_t size = load_be32(marker + kEventHeader);
        b.end_time = load_be64(marker + kEventHeader + 4);
        b.cap = load_be16(marker + kEventHeader + 12);
        if (size < kMarkerRecord || at + size > file_size) return std::nullopt;  // truncated
        if (at + size + 2 > file_size) {
            // GHC 9.6 and later write the end-of-data marker into the last block, whose size
            // counts it: its records end before the marker. Any other block reaching the
            // file's end is truncated.
            std::uint8_t last[2];
            if (at + size != file_size || size < kMarkerRecord + 2 || input.read_at(file_size - 2, last, 2) != 2 ||
                load_be16(last) != kEndOfData)
                return std::nullopt;
            b.end = file_size - 2;
            blocks.push_back(b);
            return blocks;
        }
        b.end = at + size;
        blocks.push_back(b);
        at = b.end;
    }
}

struct Checked {
    bool ok = false;
    std::uint64_t min_time = 0, max_time = 0, last_time = 0;
    std::uint32_t window = 1;
    std::uint64_t thread_creations = 0;
};

// Frames one block's records as the decoder would, declining at anything it would remark on
// but the framing of a variable-size record (counted instead).
class BlockChecker {
public:
    BlockChecker(const InputFile& input, const Header& header, const std::vector<TagCheck>& checks,
                 const BlockReading* reading, Diagnostics& framing)
        : input_(input), header_(header), checks_(checks), framing_(framing), mapping_(input.mapping()) {
        if (!mapping_) buffer_.resize(kChunk);
        if (reading) {
            reader_ = reading->reader();
            reading_ = reading;
        }
    }

    Checked check(const Block& b, std::size_t index) {
        reading_block_ = reader_ && reader_->begin_block(index, b.cap == kGlobalCap ? std::nullopt : std::optional<CapNo>(b.cap));
        if (!reading_block_) reader_.reset();  // nothing more for it
        if (reading_block_) totals_.by_tag.fill(0);
        Checked out = check_block(b);
        // Bytes read as zeros from a file cut short meanwhile may have checked as records.
        if (mapping_ && !mapping_->intact()) throw input_.changed_while_read(b.begin);
        if (reading_block_ && out.ok) {
            hand_over();
            totals_.min_time = out.min_time;
            totals_.bytes = b.end - b.begin;
            totals_.max_time = out.max_time;
            reader_->end_block(totals_);
        }
        given_.clear();
        if (mapping_) mapping_->release_around(b.begin, static_cast<std::size_t>(b.end - b.begin));
        return out;
    }

private:
    Checked check_block(const Block& b) {
        Checked out;
        TimestampGuard guard;
        guard.enter_block(b.start_time, b.end_time);
        order_.restart();
        base_ = b.begin;
        loaded_ = 0;
        released_ = FileMapping::page_floor(b.begin);
        for (std::uint64_t at = b.begin; at < b.end;) {
            const std::size_t left = static_cast<std::size_t>(std::min<std::uint64_t>(b.end - at, kMaxRecord));
            if (left < kEventHeader || !available(at, std::min(left, kEventHeader + 2), b.end)) return out;
            const std::uint8_t* p = data_ + (at - base_);
            __builtin_prefetch(p + FileMapping::kPrefetchAhead);  // never faults, even past the mapping
            const std::uint16_t tag = load_be16(p);
            std::size_t size;
            TagCheck check;
            bool variable = false;
            if (at == b.begin) {  // the marker itself, read already
                size = kMarkerRecord;
                check = TagCheck::whole;
            } else {
                check = checks_[tag];
                if (check == TagCheck::decline) return out;
                const std::int32_t declared = header_.size_of(tag);
                if (declared >= 0) {
                    size = kEventHeader + static_cast<std::size_t>(declared);
                } else {
                    if (left < kEventHeader + 2) return out;
                    size = framed_variable(at, b.end);
                    if (size == 0) return out;
                    variable = true;
                }
            }
            if (size > left || !available(at, size, b.end)) return out;  // past the block's end
            p = data_ + (at - base_);
            // Bytes after the fields this tool knows, or a declared length too large (GHC 9.10
            // writes every info-table record so): counted as decoding counts them
            // (record_framing.hpp), and told if the log is accepted.
            if (variable) count_framing(variable_framing(p, size), framing_);
            if (check == TagCheck::decode_each) {
                const std::size_t payload = payload_offset(header_, tag);
                decode_payload_into(tag, p + payload, size - payload, scratch_);
                if (std::holds_alternative<UnknownEvent>(scratch_)) return out;
            }
            if (tag == CreateThread::tag) ++out.thread_creations;
            bool corrected = false;
            const std::uint64_t time = guard.check(load_be64(p + 2), corrected);
            if (corrected || !order_.add(time)) return out;
            out.min_time = at == b.begin ? time : std::min(out.min_time, time);
            out.max_time = std::max(out.max_time, time);
            out.last_time = time;
            if (reading_block_) {
                ++totals_.by_tag[tag];  // below 256: the decoder's tags (checks_ declines others)
                if (reading_->given[tag]) {
                    const std::size_t payload = payload_offset(header_, tag);
                    given_.push_back({time, at, p + payload, static_cast<std::uint32_t>(size - payload), tag});
                    // In short runs: their bytes are still in the core's cache when it reads them.
                    if (given_.size() == kGivenRun) hand_over();
                }
            }
            at += size;
        }
        out.window = order_.window();
        out.ok = true;
        return out;
    }

    // The records given so far to the block's reader: before the buffer they point into moves on.
    void hand_over() {
        if (!given_.empty()) reader_->records(given_);
        given_.clear();
    }

    // The size of the variable-size record at `at` (its length field loaded), framed as the
    // decoder frames it; 0 if the file is shorter than it said.
    std::size_t framed_variable(std::uint64_t at, std::uint64_t end) {
        const std::size_t bound = static_cast<std::size_t>(end - at);
        for (std::size_t need = kEventHeader + 2;;) {
            if (!available(at, need, end)) return 0;
            const std::size_t avail = static_cast<std::size_t>(base_ + loaded_ - at);
            const std::size_t size = variable_record_size(header_, data_ + (at - base_), avail, bound);
            if (size <= avail) return size;
            need = size;
        }
    }

    // Makes [at, at + need) readable at data_; false if the file is shorter than it said.
    bool available(std::uint64_t at, std::size_t need, std::uint64_t end) {
        if (at >= base_ && at + need <= base_ + loaded_) return true;
        if (reading_block_) hand_over();
        if (mapping_) {
            // Where the pages are already: no copy, the step loaded at once, what is behind let go.
            const std::uint64_t mapped = mapping_->size();
            const std::uint64_t counted = std::max(at, base_ + loaded_);  // the last step's end, in this block
            loaded_ = at >= mapped ? 0 : static_cast<std::size_t>(std::min<std::uint64_t>({FileMapping::kLoadStep, end - at, mapped - at}));
            base_ = at;
            data_ = mapping_->bytes() + at;
            mapping_->load(at, loaded_);
            if (at + loaded_ > counted) input_.count_mapped(static_cast<std::size_t>(at + loaded_ - counted));
            const std::uint64_t done = FileMapping::page_floor(at);
            if (done >= released_ + FileMapping::kReleaseAfter) release_up_to(done);
            return loaded_ >= need;
        }
        const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, end - at));
        base_ = at;
        data_ = buffer_.data();
        loaded_ = input_.read_at(at, buffer_.data(), want);
        return loaded_ >= need;
    }

    void release_up_to(std::uint64_t done) {
        if (done <= released_) return;
        mapping_->release(released_, static_cast<std::size_t>(done - released_));
        released_ = done;
    }

    const InputFile& input_;
    const Header& header_;
    const std::vector<TagCheck>& checks_;
    Diagnostics& framing_;  // how its variable-size records were framed (this checker's blocks)
    const FileMapping* mapping_;  // the input's, where it is mapped; else it is read into buffer_
    std::vector<std::uint8_t> buffer_;
    const std::uint8_t* data_ = nullptr;  // the byte at base_
    std::uint64_t base_ = 0;
    std::size_t loaded_ = 0;
    std::uint64_t released_ = 0;  // mapped bytes before this are let go
    ReorderWindow order_;
    Payload scratch_;
    std::unique_ptr<BlockReader> reader_;
    const BlockReading* reading_ = nullptr;
    bool reading_block_ = false;  // the reader wants this block's records
    BlockTotals totals_;
    std::vector<BlockRecord> given_;  // to the reader, pointing at data_
    static constexpr std::size_t kGivenRun = 256;
};

}  // namespace

std::optional<RangeIndex> index_by_blocks(const InputFile& input, Diagnostics& diagnostics,
                                          const BlockReading* reading) {
    const std::optional<std::uint64_t> file_size = input.size();
    if (!file_size) return std::nullopt;
    auto header = read_header(input);
    if (!header) return std::nullopt;
    const Header& h = header->first;
    if (h.size_of(BlockMarker::tag) != static_cast<std::int32_t>(kMarkerPayload)) return std::nullopt;
    const std::optional<std::vector<Block>> blocks = find_blocks(input, header->second, *file_size);
    if (!blocks) return std::nullopt;

    if (reading && reading->found) {
        std::vector<BlockReading::Start> starts;
        starts.reserve(blocks->size());
        for (const Block& b : *blocks)
            starts.push_back({b.start_time, b.cap == kGlobalCap ? std::nullopt : std::optional<CapNo>(b.cap),
                              b.end - b.begin});
        reading->found(starts);
    }
    // Both cores check blocks, taking the next one unchecked; the first decline stops both.
    const std::vector<TagCheck> checks = tag_checks(h);
    std::vector<Checked> checked(blocks->size());
    std::atomic<std::size_t> next{0};
    std::atomic<bool> declined{false};
    std::exception_ptr failure;  // a read error on the helper thread
    std::array<Diagnostics, 2> framing;  // each checking thread's
    auto work = [&](Diagnostics& counted) {
        BlockChecker checker(input, h, checks, reading, counted);
        for (std::size_t i; !declined.load(std::memory_order_relaxed) && (i = next.fetch_add(1)) < blocks->size();) {
            checked[i] = checker.check((*blocks)[i], i);
            if (!checked[i].ok) declined = true;
        }
    };
    std::thread helper([&] {
        try {
            work(framing[1]);
        } catch (...) {
            failure = std::current_exception();
            declined = true;
        }
    });
    try {
        work(framing[0]);
    } catch (...) {
        declined = true;
        helper.join();
        throw;
    }
    helper.join();
    if (failure) std::rethrow_exception(failure);
    // The rest of a mapping's last page reads as zeros without a fault where the file is cut
    // short there.
    if (input.cut_short_while_mapped()) throw input.changed_while_read();
    if (declined) return std::nullopt;
    for (const Diagnostics& counted : framing) diagnostics.merge(counted);

    RangeIndex index;
    index.header = std::move(header->first);
    index.stream_end.bytes = *file_size;
    index.ranges.reserve(blocks->size());
    index.thread_creations = 0;
    std::uint64_t previous_time = 0;
    for (std::size_t i = 0; i < blocks->size(); ++i) {
        const Block& b = (*blocks)[i];
        EventRange r;
        r.begin = b.begin;
        r.end = b.end;
        r.cap = b.cap == kGlobalCap ? std::nullopt : std::optional<CapNo>(b.cap);
        r.min_time = checked[i].min_time;
        r.max_time = checked[i].max_time;
        r.window = checked[i].window;
        *index.thread_creations += checked[i].thread_creations;
        r.previous_time = previous_time;
        previous_time = checked[i].last_time;
        index.ranges.push_back(r);
    }
    return index;
}

}  // namespace el2fx::eventlog

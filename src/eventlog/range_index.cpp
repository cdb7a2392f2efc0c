#include "eventlog/range_index.hpp"

#include <algorithm>

#include "eventlog/push_decoder.hpp"
#include "eventlog/reorder_window.hpp"

namespace el2fx::eventlog {
namespace {

// Finds the ranges, and for each the lookahead a stable sort needs.
class RangeIndexer : public EventSink {
public:
    explicit RangeIndexer(Diagnostics& diagnostics) : diagnostics_(diagnostics) {}

    void on_header(const Header& header) override { header_ = header; }

    void on_event(const Event& event) override {
        bool starts_block = event.tag == BlockMarker::tag && std::holds_alternative<BlockMarker>(event.payload);
        bool leaves_block = in_block_ && event.offset >= block_end_;
        if (starts_block || leaves_block || ranges_.empty()) {
            start_range(event, starts_block);
            if (starts_block) {
                in_block_ = true;
                block_end_ = event.offset + std::get<BlockMarker>(event.payload).size;
            } else {
                in_block_ = false;
            }
        }
        EventRange& r = ranges_.back();
        last_time_ = event.time;
        r.end = event.offset + event.size;
        r.min_time = std::min(r.min_time, event.time);
        r.max_time = std::max(r.max_time, event.time);
        if (!order_.add(event.time)) diagnostics_.add(Diagnostic::reorder_window_exceeded);
        r.window = order_.window();
    }

    Header header_;
    std::vector<EventRange> ranges_;

private:
    void start_range(const Event& event, bool block) {
        EventRange r;
        r.begin = event.offset;
        r.cap = block ? event.cap : std::nullopt;
        r.min_time = event.time;
        r.previous_time = last_time_;
        ranges_.push_back(r);
        order_.restart();
    }

    Diagnostics& diagnostics_;
    ReorderWindow order_;
    std::uint64_t last_time_ = 0;  // of the previous event, as the decoder corrected it
    bool in_block_ = false;
    std::uint64_t block_end_ = 0;
};

}  // namespace

RangeIndex index_by_decoding(InputFile& input, Diagnostics& diagnostics) {
    RangeIndexer indexer(diagnostics);
    RangeIndex index;
    index.stream_end = decode_stream(input, indexer, diagnostics);
    index.header = std::move(indexer.header_);
    index.ranges = std::move(indexer.ranges_);
    return index;
}

}  // namespace el2fx::eventlog

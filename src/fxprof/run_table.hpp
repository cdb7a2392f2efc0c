// A table of time-stamped rows kept in a SpillStore as sorted runs: rows are appended to the
// current run while their times do not decrease; an earlier time starts a new run. Readers see
// the rows in time order, ties in insertion order (a stable sort), through a k-way merge of the
// runs. When there are more than kMaxRuns runs, adjacent runs are merged (adjacent, so that
// stability holds) under a size-tier rule like powersort's: each row is rewritten O(log n)
// times at worst, and the number of runs stays at most one per power of two of the row count.
//
// Codec: struct Row; struct State (per-run encoding state, default-constructible);
//   static constexpr std::size_t kMaxRecord;
//   static std::uint8_t* encode(std::uint8_t* p, const Row&, State&);
//   static void decode(const std::uint8_t*& p, Row&, State&);
//   static std::int64_t time(const Row&);
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <span>
#include <vector>

#include "fxprof/spill_store.hpp"
#include "util/error.hpp"

namespace el2fx::fxprof {

template <class Codec>
class RunTable {
public:
    using Row = typename Codec::Row;
    static constexpr std::size_t kMaxRuns = 32;

    void attach(SpillStore* store) { store_ = store; }

    void append(const Row& row) {
        if (!store_) throw Error("profile table used without its profile");
        const std::int64_t t = Codec::time(row);
        if (runs_.empty() || t < runs_.back().last_time) start_run();
        Run& r = runs_.back();
        std::uint8_t* p = r.stream.reserve(*store_, Codec::kMaxRecord);
        r.stream.commit(static_cast<std::size_t>(Codec::encode(p, row, r.state) - p));
        r.last_time = t;
        ++r.rows;
        ++rows_;
    }

    std::uint64_t size() const { return rows_; }
    std::size_t run_count() const { return runs_.size(); }

    // f(const Row&) for every row in time order (stable); `extra`, if given, as if appended.
    template <class F>
    void for_each(F&& f, const Row* extra = nullptr) const {
        merge(std::span<const Run>(runs_), extra, f);
    }

    // The first row in time order (nothing if the table is empty and there is no extra).
    bool front(Row& out, const Row* extra = nullptr) const {
        bool found = false;
        for (const Run& r : runs_) {
            Cursor c(*store_, r);
            if (c.next() && (!found || Codec::time(c.row) < Codec::time(out))) {
                out = c.row;
                found = true;
            }
        }
        if (extra && (!found || Codec::time(*extra) < Codec::time(out))) {
            out = *extra;
            found = true;
        }
        return found;
    }

    // Replaces the rows by those fill(const RunTable& old, RunTable& fresh) appends to an empty
    // table; the old rows' room goes back to the store.
    template <class Fill>
    void rebuild(Fill&& fill) {
        RunTable fresh;
        fresh.attach(store_);
        fill(static_cast<const RunTable&>(*this), fresh);
        for (Run& r : runs_) r.stream.release(*store_);
        runs_ = std::move(fresh.runs_);
        rows_ = fresh.rows_;
    }

private:
    struct Run {
        SpillStream stream;
        std::uint64_t rows = 0;
        std::int64_t last_time = INT64_MIN;
        typename Codec::State state{};
    };

    // Decodes one run's rows in order.
    struct Cursor {
        Cursor(const SpillStore& store, const Run& run) : reader(store, run.stream) {}
        bool next() {
            while (p == end) {
                std::span<const std::uint8_t> bytes;
                if (!reader.next(bytes)) return false;
                p = bytes.data();
                end = p + bytes.size();
            }
            Codec::decode(p, row, state);
            return true;
        }
        SpillReader reader;
        const std::uint8_t* p = nullptr;
        const std::uint8_t* end = nullptr;
        typename Codec::State state{};
        Row row{};
    };

    static unsigned tier(std::uint64_t rows) { return std::bit_width(rows); }

    void start_run() {
        if (!runs_.empty()) runs_.back().stream.close(*store_);
        if (runs_.size() >= kMaxRuns) compact();
        runs_.emplace_back();
    }

    // Pushes the runs, oldest first, on a stack whose tiers strictly decrease; a run whose
    // tier is not above the total of the runs pushed after it is merged with them.
    void compact() {
        std::vector<Run> stack;
        stack.reserve(runs_.size());
        for (Run& r : runs_) {
            stack.push_back(std::move(r));
            std::size_t j = stack.size() - 1;
            std::uint64_t above = stack[j].rows;
            while (j > 0 && tier(stack[j - 1].rows) <= tier(above)) above += stack[--j].rows;
            if (j + 1 < stack.size()) {
                Run merged = merge_runs(std::span<const Run>(stack.data() + j, stack.size() - j));
                for (std::size_t i = j; i < stack.size(); ++i) stack[i].stream.release(*store_);
                stack.resize(j);
                stack.push_back(std::move(merged));
            }
        }
        runs_ = std::move(stack);
    }

    Run merge_runs(std::span<const Run> runs) {
        Run out;
        merge(runs, nullptr, [&](const Row& row) {
            std::uint8_t* p = out.stream.reserve(*store_, Codec::kMaxRecord);
            out.stream.commit(static_cast<std::size_t>(Codec::encode(p, row, out.state) - p));
            out.last_time = Codec::time(row);
            ++out.rows;
        });
        out.stream.close(*store_);
        return out;
    }

    template <class F>
    void merge(std::span<const Run> runs, const Row* extra, F&& f) const {
        if (runs.empty() && !extra) return;
        if (runs.size() == 1 && !extra) {
            Cursor c(*store_, runs[0]);
            while (c.next()) f(c.row);
            return;
        }
        std::vector<Cursor> cursors;
        cursors.reserve(runs.size());
        for (const Run& r : runs) cursors.emplace_back(*store_, r);
        // Heap of cursor indexes, earliest time first, then the older run; the extra row is
        // index runs.size().
        const std::uint32_t extra_index = static_cast<std::uint32_t>(runs.size());
        auto time_of = [&](std::uint32_t i) {
            return i == extra_index ? Codec::time(*extra) : Codec::time(cursors[i].row);
        };
        auto later = [&](std::uint32_t a, std::uint32_t b) {
            const std::int64_t ta = time_of(a), tb = time_of(b);
            return ta != tb ? ta > tb : a > b;
        };
        std::vector<std::uint32_t> heap;
        heap.reserve(runs.size() + 1);
        for (std::uint32_t i = 0; i < cursors.size(); ++i)
            if (cursors[i].next()) heap.push_back(i);
        if (extra) heap.push_back(extra_index);
        std::make_heap(heap.begin(), heap.end(), later);
        // The earliest stays on top and is replaced in place: a run that goes on being earliest
        // (most of them, rows come in near order) costs two comparisons a row, not a pop and a push.
        while (!heap.empty()) {
            const std::uint32_t i = heap.front();
            if (i == extra_index) {
                f(*extra);
            } else {
                f(cursors[i].row);
                if (cursors[i].next()) {
                    sift_down(heap, later);
                    continue;
                }
            }
            heap.front() = heap.back();
            heap.pop_back();
            if (!heap.empty()) sift_down(heap, later);
        }
    }

    // Restores a heap (std::make_heap's order: `later` is "less") whose top alone may be out of place.
    template <class Later>
    static void sift_down(std::vector<std::uint32_t>& heap, Later& later) {
        const std::size_t n = heap.size();
        std::size_t at = 0;
        const std::uint32_t moving = heap[0];
        for (;;) {
            std::size_t child = 2 * at + 1;
            if (child >= n) break;
            if (child + 1 < n && later(heap[child], heap[child + 1])) ++child;
            if (!later(moving, heap[child])) break;
            heap[at] = heap[child];
            at = child;
        }
        heap[at] = moving;
    }

    SpillStore* store_ = nullptr;
    std::vector<Run> runs_;
    std::uint64_t rows_ = 0;
};

}  // namespace el2fx::fxprof

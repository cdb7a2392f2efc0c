// The census learnt from the eventlog's blocks one by one, as the index checks them on both
// cores (eventlog::BlockReader), instead of from a pass of its own over every event in time
// order: where it accepts a log it is RunCensusCollector's census of every event, field by
// field (block_census_test.cpp), and the conversion skips the census pass.
//
// Each block gives a share: its counts and sums, how its capability's spans meet the block
// before it (the first run, stop or GC end, before anything in the block decided that state),
// and, for each thread, its first mention, creation, labels and finish, and its run/stop
// segments. A segment is a thread's run/stop events in one block until the thread migrates
// away; a thread's segments, in time order, must not overlap (each thread runs on one
// capability at a time, and moves only by a migration), so its stopped spans are the ones
// inside each segment and the ones between a segment's last stop and the next segment's run.
// The shares are put together in time order as the blocks come: what a block holds is folded
// in once no block still to come can hold anything earlier, and the thread catalog is told
// what the blocks say of threads in the log's order, so it forgets finished threads as the
// census pass's does, at the same events (memory follows the live threads, not the log).
// Putting a share in is serial: a checking thread that finds it under way leaves its share
// to the thread at it and goes on checking blocks.
//
// It declines (finish() gives nullopt, and the census pass is taken as before) where the
// blocks alone cannot tell the census exactly: a block not in time order, a capability's
// blocks overlapping, a thread's segments overlapping, a thread's event before its block's
// start or after its finish (to the census pass a forgotten thread's later event makes it a
// new one), a finish outside a capability's block, time-profile ticks (the ticks'
// coverage needs them in time order), and threads created so often that the census pass is
// quicker.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "analysis/run/run_census.hpp"
#include "eventlog/block_index.hpp"

namespace el2fx::run {

namespace blocks {  // its implementation's: block_share.hpp, block_reader.cpp, block_combiner.hpp
struct Share;
class SpareVectors;
class Reader;
struct Combiner;
}  // namespace blocks

class BlockCensus {
public:
    // What the census pass would apply to each event it reads (redaction), here to the events
    // that tell the run's facts and the threads' labels (none: nothing).
    using Rewrite = std::function<const eventlog::Event&(const eventlog::Event&)>;
    // `rewrites_texts`: the census pass would rewrite texts (--redact-paths), which the
    // messages' sizes then follow: their records are kept for finish() to rewrite.
    BlockCensus(bool include_env, CensusLimits limits, Rewrite rewrite = {}, bool rewrites_texts = false);
    ~BlockCensus();
    BlockCensus(const BlockCensus&) = delete;
    BlockCensus& operator=(const BlockCensus&) = delete;

    // What the index hands over: the tags decoded, a reader for each checking thread.
    const eventlog::BlockReading& reading() const { return reading_; }

    // Once the index accepted the log (TimeOrderedReader::in_order()): the census, or nullopt
    // where the blocks cannot tell it.
    std::optional<RunCensus> finish();

    // Why finish() gave nullopt (for --timings and the tests); nullptr if it did not.
    const char* declined_why() const { return why_; }
    // Declined as threads are made every few records: the census's own work then matches its
    // reading, and a census pass is bound by its consumer, not by the reading.
    bool threads_made_often() const { return threads_made_often_; }

private:
    friend class blocks::Reader;  // puts its shares, declines
    bool include_env_;
    CensusLimits limits_;
    Rewrite rewrite_;
    bool rewrites_texts_;
    eventlog::BlockReading reading_;
    std::unique_ptr<blocks::SpareVectors> spares_;  // the shares' vectors, kept from block to block
    std::mutex mutex_;                              // over combiner_
    std::unique_ptr<blocks::Combiner> combiner_;    // the shares put together
    // A reader's share, once its block is done. The combiner is serial: a reader that finds it
    // busy leaves its share to the one combining and goes on checking blocks (handed_), unless
    // kMaxHanded wait there already.
    void put(std::unique_ptr<blocks::Share> share);
    void combine_handed();  // with mutex_ held, or once the readers are done
    static constexpr std::size_t kMaxHanded = 4;
    std::mutex handed_mutex_;                             // over handed_
    std::vector<std::unique_ptr<blocks::Share>> handed_;  // left by readers, not yet combined
    // Set by a reader that meets what the blocks cannot tell.
    std::atomic<bool> declined_{false};
    std::atomic<const char*> why_{nullptr};  // the first reason
    void decline(const char* why) {
        const char* none = nullptr;
        why_.compare_exchange_strong(none, why);
        declined_ = true;
    }
    std::nullopt_t declined(const char* why) {
        decline(why);
        return std::nullopt;
    }
    std::atomic<std::uint64_t> records_{0}, creations_{0};  // of the blocks read so far
    std::atomic<bool> threads_made_often_{false};
};

}  // namespace el2fx::run

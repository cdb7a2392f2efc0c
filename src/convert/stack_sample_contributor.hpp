// ghc-stack-profiler's stack samples (GHC >= 9.10, `-finfo-table-map`, WIRE-FORMAT.md in
// fixtures/src/stack_profiler/) as the Haskell call stacks of the threads' tracks.
//  - Frames: an entry's info table named from its IPE event as a Haskell developer reads it
//    (`Main.primeSieve.primes`; the source span where the table has no label; the table's name
//    where it has neither), the module as resource, the file and line as the cost-centre frames
//    have them (source view, `--sources`). An entry without IPE event shows its address, counted.
//  - Integration (as time-profile ticks do for -prof, but without taking anything away): every
//    virtual sample of a sampled thread with a track of its own keeps its time, weight, CPU delta
//    and state; its stack becomes the state's stack ("Running", "Blocked → MVar" …) extended by
//    the Haskell stack of the thread's stack sample nearest in time, within kStackReach. Sample
//    weights stay the timer's, so the call tree weighs time, not sample counts.
//  - The profiler's own threads (the one writing the messages, the "Sample Profiler Thread")
//    get a "ghc-stack-profiler" frame under their state instead, so that their work is not
//    taken for the program's.
//  - Memory: per sampled thread the samples of the last kStackHistory (frames as handles), the
//    IPE catalogue, the symbol definitions; never all samples.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analysis/ghc_profiling/info_tables.hpp"
#include "analysis/stack_profiler/frame_order.hpp"
#include "analysis/stack_profiler/stack_assembler.hpp"
#include "convert/profile_contributor.hpp"
#include "convert/sampled_stacks.hpp"
#include "util/diagnostics.hpp"

namespace el2fx::convert {

// A virtual sample takes the stack of its thread's nearest stack sample at most this far away
// (the library's default interval is 10 ms; a loaded program samples every 20–40 ms).
constexpr std::uint64_t kStackReach = 50'000'000;
// How long a thread's stack samples are kept for virtual samples still to come (they come when
// the thread's state changes; a longer stretch gets the stacks of its last kStackHistory).
constexpr std::uint64_t kStackHistory = 2'000'000'000;

struct StackSampleCounts {
    std::uint64_t frames_without_ipe = 0;  // entries
    std::uint64_t addresses_without_ipe = 0;
    std::uint64_t undefined_strings = 0, undefined_locations = 0;  // entries naming them
    std::uint64_t without_track = 0;    // samples of threads without a track of their own
    std::uint64_t shown = 0;            // samples some virtual sample took
    std::uint64_t not_shown = 0;        // samples no virtual sample was near enough to take
    std::uint64_t virtual_with_stack = 0, virtual_without_stack = 0;  // of sampled threads
    std::uint64_t profiler_virtual = 0;  // virtual samples of the profiler's own threads
    std::uint64_t before_order_known = 0;  // samples shown while the frame order was assumed
};

class StackSampleContributor final : public ProfileContributor, public SampledStacks {
public:
    explicit StackSampleContributor(Diagnostics& diagnostics) : diagnostics_(diagnostics) {}

    std::string_view name() const override { return "ghc-stack-profiler samples"; }
    void begin(ProfileContext& context) override;
    void handle(const eventlog::Event& event) override;
    pass::Interests interests() const override;
    void contribute(ProfileContext& context, std::uint64_t end) override;
    std::span<const std::uint16_t> shown_tags() const override;

    fxprof::StackHandle stack_at(eventlog::ThreadId thread, std::uint64_t time, fxprof::StackHandle state) override;

    const stack_profiler::StackAssembler& assembler() const { return assembler_; }
    const stack_profiler::FrameOrder& order() const { return order_; }
    const StackSampleCounts& counts() const { return counts_; }
    // Samples by thread id (threads with a track of their own and those without).
    const std::unordered_map<std::uint32_t, std::uint64_t>& samples_per_thread() const { return per_thread_; }
    // The observed sampling period: the median gap between a thread's consecutive samples.
    std::optional<std::uint64_t> median_period() const;

private:
    struct Stored {
        std::uint64_t time = 0;
        std::vector<fxprof::FrameHandle> frames;  // in the order written
        bool used = false;
        // The last stack made from it: the state's stack it extends, in which order.
        std::optional<fxprof::StackHandle> cached_state, cached;
        bool cached_outermost_first = true;
    };
    using Ring = std::deque<Stored>;

    void sample(const stack_profiler::AssembledSample& s);
    fxprof::FrameHandle frame_for(const stack_profiler::Entry& e);
    fxprof::FrameHandle ipe_frame(std::uint64_t address);
    fxprof::FrameHandle annotation_frame(const stack_profiler::Entry& e);
    fxprof::FrameHandle located_frame(std::string_view name, std::string_view module, std::string_view file,
                                      std::optional<std::uint32_t> line, std::optional<std::uint32_t> column);
    void evict(Ring& ring, std::uint64_t before);
    fxprof::StackHandle profiler_stack(fxprof::StackHandle state, bool writer);
    void add_summary(ProfileContext& context);

    Diagnostics& diagnostics_;
    ProfileContext* ctx_ = nullptr;
    profiling::InfoTableCatalog ipe_;
    stack_profiler::StackAssembler assembler_;
    stack_profiler::FrameOrder order_;
    StackSampleCounts counts_;
    std::uint64_t profiler_messages_seen_ = 0;

    std::unordered_map<std::uint32_t, Ring> rings_;
    std::vector<std::vector<fxprof::FrameHandle>> spare_;  // frame vectors of evicted samples, reused
    std::unordered_map<std::uint32_t, std::uint64_t> per_thread_;
    std::unordered_map<std::uint32_t, std::uint64_t> last_time_;
    std::vector<std::uint64_t> gaps_;  // the first kMaxGaps gaps between a thread's samples
    std::uint64_t samples_since_sweep_ = 0;

    std::unordered_set<std::uint32_t> writers_, samplers_;
    std::unordered_map<std::uint64_t, fxprof::FrameHandle> ipe_frames_;
    std::unordered_set<std::uint64_t> missing_addresses_;
    std::optional<fxprof::FrameHandle> writer_frame_, sampler_frame_;
};

}  // namespace el2fx::convert

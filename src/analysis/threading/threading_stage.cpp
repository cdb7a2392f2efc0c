#include "analysis/threading/threading_stage.hpp"

namespace el2fx::analysis {

ThreadingStage::ThreadingStage(ThreadingOptions options) : analysis_(diagnostics_, options, &recorder_) {
    for (std::uint16_t tag : ThreadingAnalysis::kPayloadTags) tags_.set(tag);
}

std::unique_ptr<eventlog::StageOutput> ThreadingStage::make_output() const {
    auto out = std::make_unique<Output>();
    out->calls.reserve(2 * eventlog::EventPrefetcher::kBatchEvents);
    return out;
}

void ThreadingStage::handle(const eventlog::Event& event, std::size_t index, eventlog::StageOutput& out) {
    recorder_.calls = &static_cast<Output&>(out).calls;
    recorder_.index = static_cast<std::uint32_t>(index);
    analysis_.handle(event);
}

void ThreadingStage::end(std::size_t index, eventlog::StageOutput& out) {
    recorder_.calls = &static_cast<Output&>(out).calls;
    recorder_.index = static_cast<std::uint32_t>(index);
    lives_ = analysis_.finish();
}

void ThreadingStage::replay_before(Output& out, std::size_t given, ThreadingSink& sink) {
    // The batch's output is the consumer's once the batch is handed over: it is cleared only
    // after the consumer has moved on to the next one.
    while (out.replayed < out.calls.size() && out.calls[out.replayed].index < given)
        replay(out.calls[out.replayed++], sink);
}

ThreadingResult ThreadingStage::finish(eventlog::EventPrefetcher& events, ThreadingSink& sink) {
    auto& out = static_cast<Output&>(events.stage_output());
    while (out.replayed < out.calls.size()) replay(out.calls[out.replayed++], sink);
    return std::move(lives_);
}

void ThreadingStage::replay(const Call& call, ThreadingSink& sink) {
    switch (call.what.index()) {
        case 0: sink.capability_started(static_cast<eventlog::CapNo>(call.id), std::get<0>(call.what)); break;
        case 1: sink.capability_span(static_cast<eventlog::CapNo>(call.id), std::get<1>(call.what)); break;
        case 2: sink.capability_sample(static_cast<eventlog::CapNo>(call.id), std::get<2>(call.what)); break;
        case 3: sink.thread_span(call.id, std::get<3>(call.what)); break;
        case 4: sink.thread_sample(call.id, std::get<4>(call.what)); break;
        default: break;
    }
}

}  // namespace el2fx::analysis

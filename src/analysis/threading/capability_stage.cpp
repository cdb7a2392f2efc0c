#include "analysis/threading/capability_stage.hpp"

#include <limits>

namespace el2fx::analysis {
namespace {

ThreadingOptions capabilities_part(ThreadingOptions options) {
    options.part = ThreadingPart::capabilities;
    return options;
}

}  // namespace

CapabilityStage::CapabilityStage(ThreadingOptions options, std::optional<SpanDetail> merge_spans)
    : analysis_(diagnostics_, capabilities_part(options), &recorder_) {
    for (std::uint16_t tag : kTags) tags_.set(tag);
    if (merge_spans) merger_.emplace(*merge_spans);
    recorder_.merger = merger_ ? &*merger_ : nullptr;
}

std::unique_ptr<eventlog::StageOutput> CapabilityStage::make_output() const {
    auto out = std::make_unique<Output>();
    return out;
}

void CapabilityStage::handle(const eventlog::Event& event, std::size_t index, std::uint64_t latest,
                             eventlog::StageOutput& out) {
    recorder_.calls = &static_cast<Output&>(out).calls;
    recorder_.index = static_cast<std::uint32_t>(index);
    analysis_.handle(event, latest);
}

void CapabilityStage::end(std::size_t index, std::uint64_t latest, eventlog::StageOutput& out) {
    recorder_.calls = &static_cast<Output&>(out).calls;
    recorder_.index = static_cast<std::uint32_t>(index);
    analysis_.finish(latest);
}

void CapabilityStage::replay_before(Output& out, std::size_t given, ThreadingSink& sink) {
    // The batch's output is the consumer's once the batch is handed over: it is cleared only
    // after the consumer has moved on to the next one.
    while (out.replayed < out.calls.size() && out.calls[out.replayed].index < given)
        replay(out.calls[out.replayed++], sink);
}

void CapabilityStage::finish(eventlog::StageOutput& output, ThreadingSink& sink) {
    replay_before(static_cast<Output&>(output), std::numeric_limits<std::size_t>::max(), sink);
}

void CapabilityStage::replay(const Call& call, ThreadingSink& sink) {
    if (const auto* span = std::get_if<CapabilitySpan>(&call.what))
        sink.capability_span(call.cap, *span);
    else if (const auto* sample = std::get_if<Sample<CapabilityActivity>>(&call.what))
        sink.capability_sample(call.cap, *sample);
    else if (const auto* kept = std::get_if<KeptCapabilitySpan>(&call.what))
        sink.kept_capability_span(call.cap, *kept);
    else
        sink.capability_started(call.cap, std::get<std::uint64_t>(call.what));
}

}  // namespace el2fx::analysis

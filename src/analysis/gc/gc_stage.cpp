#include "analysis/gc/gc_stage.hpp"

namespace el2fx::gc {

GcStage::GcStage() : analysis_(/*keep_records=*/true, &recorder_) {
    for (std::size_t tag = 0; tag < tags_.size(); ++tag)
        if (GcAnalysis::concerns(static_cast<std::uint16_t>(tag))) tags_.set(tag);
}

std::unique_ptr<eventlog::StageOutput> GcStage::make_output() const { return std::make_unique<Output>(); }

void GcStage::handle(const eventlog::Event& event, std::size_t index, std::uint64_t /*latest*/,
                     eventlog::StageOutput& out) {
    auto& o = static_cast<Output&>(out);
    if (!o.returned.empty()) {  // what the consumer gave back with this batch, last time round
        for (GcCollection& c : o.returned) analysis_.recycle(std::move(c));
        o.returned.clear();
    }
    recorder_.out = &o;
    recorder_.index = static_cast<std::uint32_t>(index);
    analysis_.handle_without_clock(event);
}

void GcStage::deliver_due(Output& out, std::size_t given, GcRecordSink& sink) {
    // The batch's output is the consumer's once the batch is handed over: it is cleared only
    // after the consumer has moved on to the next one.
    while (out.delivered < out.records.size() && out.records[out.delivered].index < given) {
        const Record& r = out.records[out.delivered++];
        if (r.collection)
            sink.collection(std::move(out.collections[r.slot]));
        else
            sink.heap_sample(out.samples[r.slot]);
    }
}

void GcStage::give_back(eventlog::StageOutput& output, std::vector<GcCollection>& spent) {
    auto& out = static_cast<Output&>(output);
    for (GcCollection& c : spent) out.returned.push_back(std::move(c));
    spent.clear();
}

GcAnalysisResult GcStage::finish(const SummaryEnd& end, const eventlog::EventClock* clock, GcRecordSink& sink) {
    recorder_.to = &sink;
    if (clock) analysis_.set_clock(*clock);
    return analysis_.finish(end);
}

}  // namespace el2fx::gc

#include "analysis/threading/gc_span_analysis.hpp"

namespace el2fx::analysis {

void GcSpanAnalysis::start_gc(std::uint64_t time) {
    if (!gc_start_) gc_start_ = time;
}

std::optional<GcSpan> GcSpanAnalysis::end_gc(std::uint64_t time) {
    if (!gc_start_) return std::nullopt;
    GcSpan span{*gc_start_, time};
    gc_start_.reset();
    return span;
}

std::optional<GcSpan> GcSpanAnalysis::finish(std::uint64_t end) { return end_gc(end); }

}  // namespace el2fx::analysis

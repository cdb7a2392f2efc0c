// The marker detail, a state machine of the analyses (analysis/threading/span_detail.hpp),
// which the capabilities' markers merge their spans with.
#pragma once

#include "analysis/threading/span_detail.hpp"

namespace el2fx::convert {

using analysis::default_span_detail;
using analysis::kMaxStreamMarkers;
using analysis::MergedSpans;
using analysis::NoTally;
using analysis::span_detail_for;
using analysis::SpanDetail;
using analysis::SpanDetailFilter;

}  // namespace el2fx::convert

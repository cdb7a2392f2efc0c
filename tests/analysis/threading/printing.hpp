// Test-only printers, so that a failed BOOST_TEST shows the values it compared.
#pragma once

#include <ostream>

#include "analysis/threading/activity.hpp"
#include "analysis/threading/capability_usage_analysis.hpp"
#include "analysis/threading/gc_span_analysis.hpp"
#include "analysis/threading/mutator_span_analysis.hpp"
#include "analysis/threading/off_cpu_sampler.hpp"
#include "analysis/threading/thread_state_analysis.hpp"
#include "analysis/threading/virtual_sampling_timer.hpp"

namespace el2fx::analysis {

inline std::ostream& operator<<(std::ostream& os, const CapabilityActivity& a) {
    const char* names[] = {"idle", "gc", "mutator"};
    os << names[static_cast<int>(a.state)];
    if (a.state == CapabilityState::mutator) os << ' ' << a.thread;
    return os;
}
inline std::ostream& operator<<(std::ostream& os, const ThreadActivity& a) {
    if (a.state == ThreadState::running) return os << "running on cap " << a.cap;
    return os << "blocked (status " << a.reason.status << ", blocker " << a.reason.blocker << ")";
}
inline std::ostream& operator<<(std::ostream& os, const GcSpan& s) {
    return os << '[' << s.start << ", " << s.end << ')';
}
inline std::ostream& operator<<(std::ostream& os, const MutatorSpan& s) {
    return os << '[' << s.start << ", " << s.end << ") thread " << s.thread;
}
inline std::ostream& operator<<(std::ostream& os, const CapabilitySpan& s) {
    return os << '[' << s.start << ", " << s.end << ") " << s.activity;
}
inline std::ostream& operator<<(std::ostream& os, const ThreadStateSpan& s) {
    return os << '[' << s.start << ", " << s.end << ") " << s.activity;
}
inline std::ostream& operator<<(std::ostream& os, const OffCpuSampleGroup& g) {
    return os << "group{" << g.begin << ", " << g.end << ", " << g.sample_count << '}';
}
template <typename Key>
std::ostream& operator<<(std::ostream& os, const Sample<Key>& s) {
    return os << "sample{t " << s.time << ", cpu " << s.cpu_delta_ns << ", w " << s.weight << ", " << s.key << '}';
}

}  // namespace el2fx::analysis

#include "analysis/gc/heap_census_timer.hpp"

#include <algorithm>

namespace el2fx::gc {

void HeapCensusTimer::handle(const eventlog::Event& event) {
    using namespace eventlog;
    switch (event.tag) {
        case StartGC::tag: last_done_.reset(); break;
        case GCDone::tag: last_done_ = std::max(last_done_.value_or(0), event.time); break;
        case HeapProfSampleBegin::tag:
            if (last_done_ && *last_done_ <= event.time) {
                census_start_ = *last_done_;
            } else {
                census_start_.reset();
                ++unmeasured_;
            }
            last_done_.reset();  // one census per collection
            break;
        case HeapProfSampleEnd::tag:
            if (census_start_) {
                total_ += event.time - std::min(event.time, *census_start_);
                ++measured_;
            }
            census_start_.reset();
            break;
        default: break;
    }
}

}  // namespace el2fx::gc

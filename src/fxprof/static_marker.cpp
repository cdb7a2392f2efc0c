#include "fxprof/static_marker.hpp"

#include <atomic>

namespace el2fx::fxprof {

std::size_t next_static_marker_type_id() {
    static std::atomic<std::size_t> next{0};
    return next.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace el2fx::fxprof

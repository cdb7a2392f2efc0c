// Units in types. The API speaks integer nanoseconds; the writer turns them into the format's
// units (milliseconds relative to meta.startTime, exact decimals; CPU deltas as integer ns).
#pragma once

#include <compare>
#include <cstdint>

namespace el2fx::fxprof {

// A span of time, in nanoseconds.
class Duration {
public:
    constexpr Duration() = default;
    static constexpr Duration from_nanos(std::int64_t ns) { return Duration(ns); }
    static constexpr Duration from_micros(std::int64_t us) { return Duration(us * 1000); }
    static constexpr Duration from_millis(std::int64_t ms) { return Duration(ms * 1000000); }
    constexpr std::int64_t nanos() const { return ns_; }
    constexpr auto operator<=>(const Duration&) const = default;

private:
    constexpr explicit Duration(std::int64_t ns) : ns_(ns) {}
    std::int64_t ns_ = 0;
};

// A point in time: nanoseconds after the profile's zero, which is meta.startTime.
// Negative values (before the zero) are allowed.
class Timestamp {
public:
    constexpr Timestamp() = default;
    static constexpr Timestamp from_nanos(std::int64_t ns) { return Timestamp(ns); }
    constexpr std::int64_t nanos() const { return ns_; }
    constexpr auto operator<=>(const Timestamp&) const = default;
    constexpr Timestamp operator+(Duration d) const { return Timestamp(ns_ + d.nanos()); }
    constexpr Duration operator-(Timestamp o) const { return Duration::from_nanos(ns_ - o.ns_); }

private:
    constexpr explicit Timestamp(std::int64_t ns) : ns_(ns) {}
    std::int64_t ns_ = 0;
};

// CPU time a thread used since its previous sample, in nanoseconds (>= 0). Written as integer
// nanoseconds with meta.sampleUnits.threadCPUDelta = "ns": eventlog clocks are nanoseconds, so
// nothing is truncated (samply's microseconds would drop up to 1 µs per sample).
class CpuDelta {
public:
    constexpr CpuDelta() = default;
    static constexpr CpuDelta from_nanos(std::int64_t ns) { return CpuDelta(ns); }
    static constexpr CpuDelta from(Duration d) { return CpuDelta(d.nanos()); }
    constexpr std::int64_t nanos() const { return ns_; }
    constexpr auto operator<=>(const CpuDelta&) const = default;

private:
    constexpr explicit CpuDelta(std::int64_t ns) : ns_(ns) {}
    std::int64_t ns_ = 0;
};

// Wall-clock time: nanoseconds since the Unix epoch (UTC). Used for meta.startTime only.
class WallClock {
public:
    constexpr WallClock() = default;
    static constexpr WallClock from_unix_nanos(std::int64_t ns) { return WallClock(ns); }
    constexpr std::int64_t unix_nanos() const { return ns_; }
    constexpr auto operator<=>(const WallClock&) const = default;

private:
    constexpr explicit WallClock(std::int64_t ns) : ns_(ns) {}
    std::int64_t ns_ = 0;
};

}  // namespace el2fx::fxprof

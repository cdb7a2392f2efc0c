// One line on standard error that tells how far a long conversion has got: its phase, the
// bytes read of the total, the percentage, the rate and the time left. Drawn from a thread of
// its own that looks at util::Progress a few times a second (the work never waits for it),
// only on a terminal, only once the work has lasted a moment; cleared before anything else is
// written there.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>

#include "util/progress.hpp"

namespace el2fx::cli {

// The line for `snapshot`, at most `width` - 1 columns (a line that fills the last column
// wraps on some terminals): what does not fit is left out from the right, the time left first.
// Empty when no phase is under way. ASCII only, so that its length is its width.
std::string format_progress(const util::Progress::Snapshot& snapshot, std::size_t width);

// "6 s", "1 min 05 s", "2 h 03 min": a time left, rounded up to the second.
std::string format_time_left(double seconds);

class ProgressLine {
public:
    struct Timing {
        std::chrono::milliseconds delay{1000};    // work shorter than this shows nothing
        std::chrono::milliseconds interval{250};  // between redraws
    };

    // Shows `progress` on `err` while it lives, if `err` is a terminal and not `quiet`; else it
    // does nothing at all (no thread either).
    ProgressLine(const util::Progress& progress, std::FILE* err, bool quiet);
    ProgressLine(const util::Progress& progress, std::FILE* err, bool quiet, Timing timing);
    ~ProgressLine() { stop(); }
    ProgressLine(const ProgressLine&) = delete;
    ProgressLine& operator=(const ProgressLine&) = delete;

    // Whether it shows anything: only then need the work count for it.
    bool enabled() const { return enabled_; }

    // Stops redrawing and clears the line. Call it before writing anything else to `err`
    // (a warning, the summary); the destructor calls it too.
    void stop();

private:
    void run();
    void draw(const std::string& line);
    std::size_t terminal_width() const;

    const util::Progress& progress_;
    std::FILE* err_;
    Timing timing_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    bool enabled_ = false;
    std::size_t drawn_ = 0;  // columns of the line on the terminal now
    std::thread thread_;
};

}  // namespace el2fx::cli

#include "cli/progress_line.hpp"

#include <cmath>
#include <sys/ioctl.h>
#include <unistd.h>

#include "util/units.hpp"

namespace el2fx::cli {

std::string format_time_left(double seconds) {
    const auto s = static_cast<std::uint64_t>(std::ceil(std::max(seconds, 0.0)));
    char buf[48];
    if (s < 60)
        std::snprintf(buf, sizeof buf, "%llu s", static_cast<unsigned long long>(s));
    else if (s < 3600)
        std::snprintf(buf, sizeof buf, "%llu min %02llu s", static_cast<unsigned long long>(s / 60),
                      static_cast<unsigned long long>(s % 60));
    else
        std::snprintf(buf, sizeof buf, "%llu h %02llu min", static_cast<unsigned long long>(s / 3600),
                      static_cast<unsigned long long>(s / 60 % 60));
    return buf;
}

std::string format_progress(const util::Progress::Snapshot& snapshot, std::size_t width) {
    if (!snapshot.phase || width < 2) return {};
    // The parts in the order they are given up when the line is too wide: the last first.
    std::string head = snapshot.phase;
    std::string amount, rate, left;
    // A rate over the first moments of a phase says little.
    const bool timed = snapshot.seconds >= 0.2 && snapshot.done > 0;
    const double per_second = timed ? static_cast<double>(snapshot.done) / snapshot.seconds : 0;
    if (snapshot.total > 0) {
        const std::uint64_t done = std::min(snapshot.done, snapshot.total);
        const int percent = static_cast<int>(100.0 * static_cast<double>(done) / static_cast<double>(snapshot.total));
        amount = util::format_bytes(done) + " of " + util::format_bytes(snapshot.total) + " (" +
                 std::to_string(percent) + "%)";
        if (timed) left = format_time_left(static_cast<double>(snapshot.total - done) / per_second) + " left";
    } else if (snapshot.done > 0) {
        amount = util::format_bytes(snapshot.done);
    } else {
        amount = format_time_left(std::floor(snapshot.seconds));  // nothing counted: how long it has taken
    }
    if (timed) rate = util::format_bytes(static_cast<std::uint64_t>(per_second)) + "/s";
    std::string line = head;
    for (const std::string* part : {&amount, &rate, &left}) {
        if (part->empty()) continue;
        if (line.size() + 2 + part->size() > width - 1) break;
        line += "  " + *part;
    }
    if (line.size() > width - 1) line.resize(width - 1);
    return line;
}

ProgressLine::ProgressLine(const util::Progress& progress, std::FILE* err, bool quiet)
    : ProgressLine(progress, err, quiet, Timing{}) {}

ProgressLine::ProgressLine(const util::Progress& progress, std::FILE* err, bool quiet, Timing timing)
    : progress_(progress), err_(err), timing_(timing) {
    if (quiet || !err || !::isatty(::fileno(err))) return;
    enabled_ = true;
    thread_ = std::thread([this] { run(); });
}

void ProgressLine::stop() {
    if (!thread_.joinable()) return;
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
    draw({});  // the thread has ended: this one owns the line now
}

void ProgressLine::run() {
    std::unique_lock lock(mutex_);
    if (wake_.wait_for(lock, timing_.delay, [this] { return stopping_; })) return;
    for (;;) {
        lock.unlock();
        draw(format_progress(progress_.snapshot(), terminal_width()));
        lock.lock();
        if (wake_.wait_for(lock, timing_.interval, [this] { return stopping_; })) return;
    }
}

// Overwrites the line: the new text, then spaces over what is left of the old one, the cursor
// at the line's start (an empty text clears it).
void ProgressLine::draw(const std::string& line) {
    if (line.empty() && drawn_ == 0) return;
    std::string text = "\r" + line;
    if (drawn_ > line.size()) text.append(drawn_ - line.size(), ' ');
    if (line.empty()) text += '\r';
    std::fwrite(text.data(), 1, text.size(), err_);
    std::fflush(err_);
    drawn_ = line.size();
}

std::size_t ProgressLine::terminal_width() const {
    winsize size{};
    if (::ioctl(::fileno(err_), TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
    return 80;
}

}  // namespace el2fx::cli

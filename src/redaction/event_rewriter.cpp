#include "redaction/event_rewriter.hpp"

#include <optional>
#include <tuple>
#include <type_traits>
#include <variant>

namespace el2fx::redaction {
namespace {

using namespace eventlog;

// Paths need a slash or backslash, or a percent-encoded one.
bool may_hold_path(std::string_view s) { return s.find_first_of("/\\%") != std::string_view::npos; }

class TextRewriter {
public:
    explicit TextRewriter(std::deque<std::string>& texts) : texts_(texts) {}

    std::string_view keep(std::string text) {
        texts_.push_back(std::move(text));
        return texts_.back();
    }

    void paths(Text& t) {
        if (may_hold_path(t.bytes)) t.bytes = keep(reduce_paths(t.bytes));
    }
    void paths(CString& t) {
        if (may_hold_path(t.bytes)) t.bytes = keep(reduce_paths(t.bytes));
    }
    void paths(std::optional<CString>& t) {
        if (t) paths(*t);
    }
    void paths(StringList& list) {
        if (!may_hold_path(list.bytes)) return;
        std::string joined;
        bool first = true;
        list.for_each([&](std::string_view item) {
            if (!first) joined += '\0';
            first = false;
            joined += reduce_paths(item);
        });
        list.bytes = keep(std::move(joined));
    }
    template <typename T>
    void paths(T&) {}

private:
    std::deque<std::string>& texts_;
};

// argv[0]'s file name, then one "[redacted]" for all the rest.
std::string redacted_args(const StringList& args) {
    std::string out;
    std::size_t n = 0;
    args.for_each([&](std::string_view a) {
        if (n++ == 0) out += file_name(a);
    });
    if (n > 1) {
        out += '\0';
        out += kRedacted;
    }
    return out;
}

std::string redacted_command_line(std::string_view line) {
    std::size_t start = line.find_first_not_of(' ');
    if (start == std::string_view::npos) return {};
    std::size_t end = line.find(' ', start);
    std::string out(
        file_name(line.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start)));
    if (end != std::string_view::npos && line.find_first_not_of(' ', end) != std::string_view::npos) {
        out += ' ';
        out += kRedacted;
    }
    return out;
}

}  // namespace

const Event& EventRewriter::rewrite(const Event& event) {
    if (!started_) {
        started_ = true;
        shift_ = options_.shift_to_zero ? event.time : 0;
    }
    texts_.clear();
    event_ = event;
    // Every field that is a time on the event clock moves with the events: the event's
    // own, a block's end and a biographical census's time. WALL_CLOCK_TIME and Eden's
    // CREATE_MACHINE carry wall-clock times and stay; the rest are no times or durations.
    auto shifted = [this](std::uint64_t t) { return t >= shift_ ? t - shift_ : 0; };
    event_.time = shifted(event.time);
    if (auto* block = std::get_if<BlockMarker>(&event_.payload)) block->end_time = shifted(block->end_time);
    if (auto* bio = std::get_if<HeapBioProfSampleBegin>(&event_.payload)) bio->time = shifted(bio->time);
    if (options_.redact_args || options_.redact_paths) redact(event_.payload);
    return event_;
}

void EventRewriter::redact(Payload& payload) {
    TextRewriter rewriter(texts_);
    std::visit(
        [&](auto& p) {
            using P = std::decay_t<decltype(p)>;
            if constexpr (std::is_same_v<P, ProgramArgs>) {
                if (options_.redact_args) p.args.bytes = rewriter.keep(redacted_args(p.args));
            } else if constexpr (std::is_same_v<P, ProgramInvocation>) {
                if (options_.redact_args)
                    p.command_line.bytes = rewriter.keep(redacted_command_line(p.command_line.bytes));
            }
            if constexpr (requires { P::fields(); }) {
                if (options_.redact_paths)
                    std::apply([&](auto... field) { (rewriter.paths(p.*(field.member)), ...); }, P::fields());
            }
        },
        payload);
}

}  // namespace el2fx::redaction

#include "convert/event_rewriter.hpp"

#include <optional>
#include <tuple>
#include <type_traits>
#include <variant>

namespace el2fx::convert {
namespace {

using namespace eventlog;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
bool is_separator(char c) { return c == '/' || c == '\\'; }
bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
// A path may start after these…
bool opens_path(char c) { return is_space(c) || std::string_view("=:,;\"'`([{<").find(c) != std::string_view::npos; }
// …and ends before these.
bool closes_path(char c) {
    return is_space(c) || c == '\0' || std::string_view(":,;\"'`)]}>").find(c) != std::string_view::npos;
}
bool closes_url(char c) { return is_space(c) || c == '\0' || std::string_view("\"'`)]}>").find(c) != std::string_view::npos; }

// The root of an absolute path at text[i] ("/", "~/", "C:\", "C:/", "\\"), or 0.
std::size_t root_length(std::string_view s, std::size_t i) {
    if (s[i] == '/') return 1;
    if (s[i] == '~' && i + 1 < s.size() && s[i + 1] == '/') return 2;
    if (s[i] == '\\' && i + 1 < s.size() && s[i + 1] == '\\') return 2;
    if (is_letter(s[i]) && i + 2 < s.size() && s[i + 1] == ':' && is_separator(s[i + 2])) return 3;
    return 0;
}

// Appends the path at s[i] (root `root`) reduced to its last component; returns its end.
std::size_t take_path(std::string_view s, std::size_t i, std::size_t root, std::string& out) {
    std::size_t end = i + root;
    while (end < s.size() && !closes_path(s[end])) ++end;
    std::string_view path = s.substr(i, end - i);
    std::string_view rest = path.substr(root);
    std::size_t last = rest.find_last_not_of("/\\");
    if (last == std::string_view::npos) {  // just a root: "/", "~/"
        out += path;
        return end;
    }
    std::string_view trimmed = rest.substr(0, last + 1);
    std::size_t sep = trimmed.find_last_of("/\\");
    // "/x" alone is not taken for a path ("x /= y", "a / b"); "~/x" and "C:\x" are.
    if (sep == std::string_view::npos && root == 1) {
        out += path;
        return end;
    }
    out += sep == std::string_view::npos ? trimmed : trimmed.substr(sep + 1);
    return end;
}

bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        char x = a[i], y = b[i];
        if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
        if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
        if (x != y) return false;
    }
    return true;
}

bool may_hold_path(std::string_view s) { return s.find_first_of("/\\") != std::string_view::npos; }

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
    std::string out(file_name(line.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start)));
    if (end != std::string_view::npos && line.find_first_not_of(' ', end) != std::string_view::npos) {
        out += ' ';
        out += kRedacted;
    }
    return out;
}

}  // namespace

std::string_view file_name(std::string_view path) {
    std::size_t last = path.find_last_not_of("/\\");
    if (last == std::string_view::npos) return path;
    std::string_view trimmed = path.substr(0, last + 1);
    std::size_t sep = trimmed.find_last_of("/\\");
    return sep == std::string_view::npos ? trimmed : trimmed.substr(sep + 1);
}

std::string reduce_paths(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    std::size_t i = 0;
    while (i < s.size()) {
        bool at_start = i == 0 || opens_path(s[i - 1]);
        std::size_t root = at_start ? root_length(s, i) : 0;
        if (root == 0) {
            out += s[i++];
            continue;
        }
        if (i > 0 && s[i - 1] == ':' && s.substr(i, 2) == "//") {  // a URL: "scheme://"
            std::size_t b = i - 1;
            while (b > 0 && (is_letter(s[b - 1]) || (s[b - 1] >= '0' && s[b - 1] <= '9') || s[b - 1] == '+' ||
                             s[b - 1] == '-' || s[b - 1] == '.'))
                --b;
            if (!iequals(s.substr(b, i - 1 - b), "file")) {
                std::size_t end = i;
                while (end < s.size() && !closes_url(s[end])) ++end;
                out += s.substr(i, end - i);
                i = end;
                continue;
            }
            out += "//";  // file://[host]/path: the path is reduced
            i += 2;
            if (i < s.size() && s[i] == '/') i = take_path(s, i, 1, out);
            continue;
        }
        i = take_path(s, i, root, out);
    }
    return out;
}

const Event& EventRewriter::apply(const Event& event) {
    if (!started_) {
        started_ = true;
        shift_ = options_.shift_to_zero ? event.time : 0;
    }
    if (!options_.shift_to_zero && !options_.redact_args && !options_.redact_paths) return event;
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
                if (options_.redact_args) p.command_line.bytes = rewriter.keep(redacted_command_line(p.command_line.bytes));
            }
            if constexpr (requires { P::fields(); }) {
                if (options_.redact_paths)
                    std::apply([&](auto... field) { (rewriter.paths(p.*(field.member)), ...); }, P::fields());
            }
        },
        payload);
}

}  // namespace el2fx::convert

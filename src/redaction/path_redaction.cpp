#include "redaction/path_redaction.hpp"

namespace el2fx::redaction {
namespace {

constexpr std::size_t npos = std::string_view::npos;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
bool is_separator(char c) { return c == '/' || c == '\\'; }
bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
// Characters of words: a slash right after one continues a relative path ("src/a/b.hs").
// Bytes of UTF-8 sequences count as letters.
bool is_word(char c) {
    return is_letter(c) || is_digit(c) || c == '_' || c == '.' || c == '-' || static_cast<unsigned char>(c) >= 0x80;
}
// An absolute path ends before these (the path part of a URL too).
bool closes_path(char c) { return is_space(c) || c == '\0' || std::string_view(":,;\"'`)]}>").find(c) != npos; }
bool closes_url(char c) { return is_space(c) || c == '\0' || std::string_view("\"'`)]}>").find(c) != npos; }
bool in_scheme(char c) { return is_letter(c) || is_digit(c) || c == '+' || c == '-' || c == '.'; }

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

// What reduction needs of a path: its non-empty components, whether one is "..", the last.
struct PathShape {
    std::size_t components = 0;
    bool climbs = false;
    std::string_view last;
};

PathShape shape_of(std::string_view path) {
    PathShape shape;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= path.size(); ++i) {
        if (i < path.size() && !is_separator(path[i])) continue;
        if (i > start) {
            std::string_view component = path.substr(start, i - start);
            ++shape.components;
            shape.climbs = shape.climbs || component == "..";
            shape.last = component;
        }
        start = i + 1;
    }
    return shape;
}

std::size_t path_end(std::string_view s, std::size_t from) {
    while (from < s.size() && !closes_path(s[from])) ++from;
    return from;
}

// The root of an absolute path at s[i] ("/", "\", "\\", "~/", "~user/", "C:\", "C:/"), or 0.
std::size_t root_length(std::string_view s, std::size_t i) {
    const char c = s[i];
    if (c == '\\' && i + 1 < s.size() && s[i + 1] == '\\') return 2;
    if (is_separator(c)) return 1;
    if (c == '~') {
        std::size_t j = i + 1;
        while (j < s.size() && is_word(s[j])) ++j;
        return j < s.size() && is_separator(s[j]) ? j + 1 - i : 0;
    }
    if (is_letter(c) && i + 2 < s.size() && s[i + 1] == ':' && is_separator(s[i + 2])) return 3;
    return 0;
}

// Components a path needs after its root to be taken for one: "/usr", "a / b" and "x /= y"
// are not; "~/x", "C:\x" and "\\server\x" are.
std::size_t components_needed(std::string_view root) { return root.size() == 1 ? 2 : 1; }

class Reducer {
public:
    explicit Reducer(std::string_view s) : s_(s) { out_.reserve(s.size()); }

    std::string run() {
        while (i_ < s_.size()) step();
        return std::move(out_);
    }

private:
    // Appends a path's last component in place of the path (which ends at `end`), and notes
    // where a word glued on after it would start.
    void reduce(std::string_view last, std::size_t end) {
        out_ += last;
        i_ = end;
        glued_after_ = end < s_.size() && !is_space(s_[end]) ? end + 1 : npos;
    }

    void step() {
        const std::size_t i = i_;
        const bool starts_word = i == 0 || !(is_word(s_[i - 1]) || is_separator(s_[i - 1]));
        if (!starts_word) {
            out_ += s_[i_++];
            return;
        }
        if (s_.substr(i, 2) == "//" && i > 0 && s_[i - 1] == ':' && url(i)) return;
        if (std::size_t root = root_length(s_, i)) {
            const std::size_t end = path_end(s_, i + root);
            const PathShape shape = shape_of(s_.substr(i + root, end - (i + root)));
            if (shape.components >= components_needed(s_.substr(i, root))) return reduce(shape.last, end);
            out_ += s_[i_++];  // not a path: the rest is looked at again
            return;
        }
        if (s_[i] == '-' && option_value(i)) return;
        // A word, possibly a relative path: reduced only when it climbs, or when it is glued
        // on after a path ("/a/b:c/d").
        std::size_t j = i;
        bool has_separator = false;
        while (j < s_.size() && (is_word(s_[j]) || is_separator(s_[j]))) has_separator |= is_separator(s_[j++]);
        if (has_separator && (i == glued_after_ || shape_of(s_.substr(i, j - i)).climbs)) {
            // Taken whole, to the path's end (what follows is looked at once only).
            const std::size_t end = path_end(s_, i);
            return reduce(shape_of(s_.substr(i, end - i)).last, end);
        }
        if (j == i) ++j;  // a character that is no part of a word
        out_ += s_.substr(i, j - i);
        i_ = j;
    }

    // "scheme://…" at the "//" at i: copied, except a file: URL's path, which is reduced.
    bool url(std::size_t i) {
        std::size_t b = i - 1;
        while (b > 0 && in_scheme(s_[b - 1])) --b;
        if (b == i - 1 || !is_letter(s_[b])) return false;
        if (iequals(s_.substr(b, i - 1 - b), "file")) {
            out_ += "//";
            const std::size_t end = path_end(s_, i + 2);
            const PathShape shape = shape_of(s_.substr(i + 2, end - (i + 2)));
            if (shape.components == 0) {
                i_ = i + 2;
                return true;
            }
            reduce(shape.last, end);
            return true;
        }
        std::size_t end = i;
        while (end < s_.size() && !closes_url(s_[end])) ++end;
        out_ += s_.substr(i, end - i);
        i_ = end;
        return true;
    }

    // "-ol/home/ann/out.eventlog", "--out/x/y": the option stays, its path is reduced.
    bool option_value(std::size_t i) {
        std::size_t k = i;
        while (k < s_.size() && k < i + 2 && s_[k] == '-') ++k;
        const std::size_t name = k;
        while (k < s_.size() && (is_letter(s_[k]) || is_digit(s_[k]) || (k > name && s_[k] == '-'))) ++k;
        if (k == name || k >= s_.size() || !is_separator(s_[k])) return false;
        const std::size_t end = path_end(s_, k + 1);
        const PathShape shape = shape_of(s_.substr(k + 1, end - (k + 1)));
        if (shape.components < 2) return false;
        out_ += s_.substr(i, k - i);
        reduce(shape.last, end);
        return true;
    }

    std::string_view s_;
    std::string out_;
    std::size_t i_ = 0;
    std::size_t glued_after_ = npos;  // where a word glued on after a reduced path would start
};

std::string reduce_plain(std::string_view text) { return Reducer(text).run(); }

int hex_value(char c) {
    if (is_digit(c)) return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// One level of percent-decoding (%00 stays: texts are NUL-separated lists at times).
bool percent_decode(std::string& text) {
    std::string out;
    out.reserve(text.size());
    bool changed = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '%' && i + 2 < text.size()) {
            const int hi = hex_value(text[i + 1]), lo = hex_value(text[i + 2]);
            if (hi >= 0 && lo >= 0 && (hi | lo) != 0) {
                out += static_cast<char>(hi * 16 + lo);
                i += 2;
                changed = true;
                continue;
            }
        }
        out += text[i];
    }
    if (changed) text = std::move(out);
    return changed;
}

constexpr int kDecodingLevels = 3;  // %2F, %252F, %25252F

}  // namespace

std::string_view file_name(std::string_view path) {
    std::size_t last = path.find_last_not_of("/\\");
    if (last == npos) return path;
    std::string_view trimmed = path.substr(0, last + 1);
    std::size_t sep = trimmed.find_last_of("/\\");
    return sep == npos ? trimmed : trimmed.substr(sep + 1);
}

std::string reduce_paths(std::string_view text) {
    std::string plain = reduce_plain(text);
    if (text.find('%') == npos) return plain;
    std::string decoded(text);
    bool changed = false;
    for (int level = 0; level < kDecodingLevels && percent_decode(decoded); ++level) changed = true;
    if (!changed) return plain;
    std::string reduced = reduce_plain(decoded);
    return reduced != decoded ? reduced : plain;
}

}  // namespace el2fx::redaction

#include "analysis/stack_profiler/stack_message.hpp"

#include "util/utf8.hpp"

namespace el2fx::stack_profiler {
namespace {

constexpr std::uint16_t kFinal = 0xFFCA, kChunk = 0xFFCB, kString = 0xFFCC, kLocation = 0xFFCD;
constexpr std::size_t kStackHeader = 12;  // tag, capability, thread, count

std::uint64_t be(std::string_view p, std::size_t at, std::size_t width) {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < width; ++i) v = (v << 8) | static_cast<unsigned char>(p[at + i]);
    return v;
}

// The size of one entry of `kind` in `layout` (0: no such entry).
std::size_t entry_size(unsigned char kind, Layout layout) {
    switch (kind) {
        case 1:
        case 2: return 9;
        case 3: return layout == Layout::v0_1 ? 9 : 17;
        default: return 0;
    }
}

// Whether `count` entries in `layout` fill `entries` exactly; `saw_located` notes an 03.
bool fits(std::string_view entries, std::uint16_t count, Layout layout, bool& saw_located) {
    std::size_t at = 0;
    for (std::uint32_t i = 0; i < count; ++i) {
        if (at >= entries.size()) return false;
        const auto kind = static_cast<unsigned char>(entries[at]);
        std::size_t size = entry_size(kind, layout);
        if (size == 0 || entries.size() - at < size) return false;
        if (kind == 3) saw_located = true;
        at += size;
    }
    return at == entries.size();
}

Message call_stack(std::string_view p, Layout assumed) {
    Message m;
    m.kind = MessageKind::malformed;
    if (p.size() < kStackHeader) return m;
    m.final = be(p, 0, 2) == kFinal;
    m.cap = static_cast<std::uint32_t>(be(p, 2, 4));
    m.thread = static_cast<std::uint32_t>(be(p, 6, 4));
    m.count = static_cast<std::uint16_t>(be(p, 10, 2));
    m.entries = p.substr(kStackHeader);
    bool located = false;
    // The layout the log has shown first; then the other one (a message alone may prove it).
    const Layout first = assumed == Layout::v0_1 ? Layout::v0_1 : Layout::v0_3;
    const Layout second = first == Layout::v0_1 ? Layout::v0_3 : Layout::v0_1;
    if (fits(m.entries, m.count, first, located)) {
        m.kind = MessageKind::call_stack;
        // Without an 03 entry both layouts read it alike: it proves nothing. With one it fits
        // one layout only (n entries are 9n bytes in 0.1, 9n + 8 per 03 in 0.3).
        m.layout = located ? first : Layout::unknown;
        return m;
    }
    located = false;
    if (fits(m.entries, m.count, second, located)) {
        m.kind = MessageKind::call_stack;
        m.layout = second;
    }
    return m;
}

Message string_def(std::string_view p) {
    Message m;
    m.kind = MessageKind::malformed;
    if (p.size() < 12) return m;
    m.id = be(p, 2, 8);
    const std::uint64_t chars = be(p, 10, 2);
    std::string_view bytes = p.substr(12);
    // `chars` code points, which must end where the payload ends.
    const auto* at = reinterpret_cast<const unsigned char*>(bytes.data());
    const auto* end = at + bytes.size();
    for (std::uint64_t i = 0; i < chars; ++i) {
        if (at == end) return m;
        utf8::Step s = utf8::decode(at, end);
        if (!s.valid) return m;
        at += s.length;
    }
    if (at != end) return m;
    m.kind = MessageKind::string_def;
    m.text = bytes;
    return m;
}

Message location_def(std::string_view p) {
    Message m;
    m.kind = MessageKind::malformed;
    if (p.size() != 26 && p.size() != 34) return m;
    m.kind = MessageKind::location_def;
    m.id = be(p, 2, 8);
    m.line = static_cast<std::uint32_t>(be(p, 10, 4));
    m.column = static_cast<std::uint32_t>(be(p, 14, 4));
    if (p.size() == 26) {
        m.layout = Layout::v0_3;
        m.file = be(p, 18, 8);
    } else {
        m.layout = Layout::v0_1;
        m.function = be(p, 18, 8);
        m.file = be(p, 26, 8);
    }
    return m;
}

}  // namespace

Message decode_message(std::string_view payload, Layout assumed) noexcept {
    Message m;
    if (payload.size() < 2) return m;
    const auto tag = static_cast<std::uint16_t>(be(payload, 0, 2));
    switch (tag) {
        case kFinal:
        case kChunk: return call_stack(payload, assumed);
        case kString: return string_def(payload);
        case kLocation: return location_def(payload);
        default: break;
    }
    // The formats before 0.1.0.0: "CA11" in ASCII, then the 2-byte tag CA 11; and message kinds
    // a later release may add after FF CD.
    // The old stack messages had at least a tag, a thread, a capability and a count: shorter
    // ones starting so are the program's own.
    if ((payload.starts_with("CA11") && payload.size() >= 13) || (tag == 0xCA11 && payload.size() >= 11) ||
        (tag > kLocation && tag <= 0xFFDF))
        m.kind = MessageKind::unknown_format;
    return m;
}

bool is_profiler_message(std::string_view payload) noexcept {
    // A malformed FF CA…FF CD is the program's own message as far as the reference reader goes.
    const MessageKind kind = decode_message(payload).kind;
    return kind != MessageKind::not_profiler && kind != MessageKind::malformed;
}

bool EntryReader::next(Entry& out) noexcept {
    if (p_.empty()) return false;
    const auto kind = static_cast<unsigned char>(p_[0]);
    const std::size_t size = entry_size(kind, layout_);
    if (size == 0 || p_.size() < size) {
        p_ = {};  // decode_message checked the entries: only a wrong layout gets here
        return false;
    }
    out.location = 0;
    out.value = be(p_, 1, 8);
    if (kind == 1) {
        out.kind = EntryKind::ipe;
    } else if (kind == 2) {
        out.kind = EntryKind::annotation;
    } else if (size == 9) {
        out.kind = EntryKind::location;
    } else {
        out.kind = EntryKind::located;
        out.location = be(p_, 9, 8);
    }
    p_.remove_prefix(size);
    return true;
}

}  // namespace el2fx::stack_profiler

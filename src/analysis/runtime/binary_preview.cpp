#include "analysis/runtime/binary_preview.hpp"

#include "util/utf8.hpp"

namespace el2fx::runtime {
namespace {

constexpr std::string_view kEllipsis = "\xE2\x80\xA6";  // …

// Decodes up to `max_bytes` of input; `control_pictures` shows C0 controls and DEL.
std::string decode(std::string_view bytes, std::size_t max_bytes, bool control_pictures) {
    std::string out;
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
    const auto* end = p + bytes.size();
    std::size_t used = 0;
    while (p < end) {
        utf8::Step s = utf8::decode(p, end);
        if (used + s.length > max_bytes) {
            out += kEllipsis;
            break;
        }
        if (!s.valid) {
            utf8::append_code_point(out, utf8::kReplacement);
        } else if (control_pictures && s.code_point < 0x20) {
            utf8::append_code_point(out, 0x2400 + s.code_point);
        } else if (control_pictures && s.code_point == 0x7F) {
            utf8::append_code_point(out, 0x2421);
        } else {
            out.append(reinterpret_cast<const char*>(p), s.length);
        }
        p += s.length;
        used += s.length;
    }
    return out;
}

}  // namespace

std::string visible_text(std::string_view bytes, std::size_t max_bytes) { return decode(bytes, max_bytes, true); }

std::string shortened_text(std::string_view bytes, std::size_t max_bytes) { return decode(bytes, max_bytes, false); }

BinaryPreview preview_binary(std::string_view bytes, std::size_t max_bytes) {
    static constexpr char kHex[] = "0123456789abcdef";
    BinaryPreview p;
    std::size_t n = bytes.size() < max_bytes ? bytes.size() : max_bytes;
    for (std::size_t i = 0; i < n; ++i) {
        auto b = static_cast<unsigned char>(bytes[i]);
        if (i) p.hex.push_back(' ');
        p.hex.push_back(kHex[b >> 4]);
        p.hex.push_back(kHex[b & 0xF]);
    }
    if (n < bytes.size()) p.hex += (n ? " " : "") + std::string(kEllipsis);
    p.text = visible_text(bytes, max_bytes);
    p.utf8 = utf8::is_valid(bytes);
    return p;
}

}  // namespace el2fx::runtime

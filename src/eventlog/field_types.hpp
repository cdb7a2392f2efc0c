// Field types that payload structs are made of. Each says how its bytes are laid
// out, so the decoder, the test encoder and the printers can be generic over them.
// Views point into the decoder's buffer: valid until the next event is read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "eventlog/byte_reader.hpp"

namespace el2fx::eventlog {

// The rest of the payload, as text (UTF-8 as written, possibly invalid).
struct Text {
    std::string_view bytes;
};

// A NUL-terminated string inside the payload.
struct CString {
    std::string_view bytes;
};

// The rest of the payload, as raw bytes.
struct Bytes {
    std::string_view bytes;
};

// The rest of the payload: strings separated by NUL bytes (program arguments,
// environment). A trailing NUL does not start another string.
struct StringList {
    std::string_view bytes;

    template <typename F>
    void for_each(F&& f) const {
        std::string_view rest = bytes;
        while (!rest.empty()) {
            std::size_t nul = rest.find('\0');
            if (nul == std::string_view::npos) {
                f(rest);
                break;
            }
            f(rest.substr(0, nul));
            rest.remove_prefix(nul + 1);
        }
    }
};

// A list of big-endian 32-bit numbers preceded by its length as a `Count`
// (cost-centre stacks: Word8 depth, then that many Word32 ids).
template <typename Count>
struct U32Array {
    std::string_view bytes;  // the items only, big-endian

    std::size_t size() const { return bytes.size() / 4; }
    std::uint32_t operator[](std::size_t i) const {
        return load_be32(reinterpret_cast<const std::uint8_t*>(bytes.data()) + 4 * i);
    }
};

using CostCentreStack = U32Array<std::uint8_t>;

}  // namespace el2fx::eventlog

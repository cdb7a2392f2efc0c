#include "eventlog/stream.hpp"

#include <vector>

#include "util/error.hpp"

namespace el2fx::eventlog {

StreamEnd decode_stream(InputFile& input, EventSink& sink, Diagnostics& diagnostics) {
    try {
        PushDecoder decoder(sink, diagnostics);
        std::vector<std::uint8_t> buffer(1 << 18);  // fits in L2: decoding reads it right after
        for (;;) {
            std::size_t n = input.read(buffer.data(), buffer.size());
            if (n == 0) break;
            decoder.feed(buffer.data(), n);
        }
        decoder.finish();
        return StreamEnd{decoder.bytes_fed(), decoder.truncated_at(), decoder.truncated_mid_event(), decoder.lost(),
                         decoder.first_bad_time_at()};
    } catch (const Error& e) {
        if (!e.context().file.empty()) throw;
        throw e.with_file(input.name());
    }
}

}  // namespace el2fx::eventlog

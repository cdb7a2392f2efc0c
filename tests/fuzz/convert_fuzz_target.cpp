#include <cstdio>
#include <cstdlib>
#include <string>

#include "check/profile_check.hpp"
#include "convert/converter.hpp"
#include "fxprof/byte_sink.hpp"
#include "fxprof/gzip.hpp"
#include "fxprof/profile_writer.hpp"
#include "memory_file.hpp"
#include "product_fuzz_targets.hpp"
#include "util/error.hpp"

namespace {

using namespace el2fx;

constexpr std::size_t kMaxInput = 1 << 20;  // the budget: work grows with the number of events

// The JSON text kept for the validator, and the same bytes through gzip into nothing.
class TeeSink final : public fxprof::ByteSink {
public:
    TeeSink(std::string& json, fxprof::ByteSink& other) : json_(json), other_(other) {}
    void write(const char* data, std::size_t size) override {
        json_.append(data, size);
        other_.write(data, size);
    }

private:
    std::string& json_;
    fxprof::ByteSink& other_;
};

class DiscardSink final : public fxprof::ByteSink {
public:
    void write(const char*, std::size_t size) override { bytes += size; }
    std::size_t bytes = 0;
};

convert::ConvertOptions options_for(std::uint8_t bits) {
    convert::ConvertOptions options;
    options.input_name = "/home/user/fuzz.eventlog";
    if (bits & 0x01) options.all_threads = true;
    if (bits & 0x02) options.max_threads = 2;
    if (bits & 0x04) options.redact_args = options.redact_paths = true;
    if (bits & 0x08) options.user_messages = false;
    if (bits & 0x10) options.marker_resolution_ns = 0;
    if (bits & 0x20) options.spark_burst_gap_ns = 0;
    if (bits & 0x40) options.heap_bands = 1;
    if (bits & 0x80) options.include_env = true;
    return options;
}

// The reference of the differential check: every record decoded and given to every part.
convert::ConvertOptions naive_pass(convert::ConvertOptions options) {
    options.pass_mode = pass::PassMode::naive;
    return options;
}

void fail(const std::string& what) {
    std::fprintf(stderr, "convert fuzz target: %s\n", what.c_str());
    std::abort();
}

}  // namespace

int fuzz_convert(const std::uint8_t* data, std::size_t size) {
    if (size > kMaxInput) return 0;
    fuzz::MemoryFile file(data, size);
    if (!file.ok()) return 0;
    const std::uint8_t bits = fuzz::option_bits(data, size);
    const convert::ConvertOptions options = options_for(bits);
    std::string json;
    try {
        fxprof::Profile profile = [&] {
            // Now and then the same log twice, side by side (the comparison mode).
            if ((bits & 0x03) == 0x03) {
                std::vector<convert::ConversionReport> reports;
                return convert::build_profile({{file.path(), "before"}, {file.path(), "after"}}, options, reports);
            }
            convert::ConversionReport report;
            return convert::build_profile(file.path(), options, report);
        }();
        DiscardSink nothing;
        fxprof::GzipSink gzip(nothing);
        TeeSink tee(json, gzip);
        fxprof::write_profile_json(profile, tee);
        gzip.finish();
    } catch (const Error& e) {
        // A located error is a fine answer to bad input, and the naive pass gives it too.
        if ((bits & 0x03) != 0x03) {
            bool refused = false;
            try {
                convert::ConversionReport report;
                convert::build_profile(file.path(), naive_pass(options), report);
            } catch (const Error&) {
                refused = true;
            }
            if (!refused) fail(std::string("the planned pass refuses what the naive one converts: ") + e.what());
        }
        return 0;
    }
    std::vector<std::string> problems = check::validate_profile(json);
    if (!problems.empty()) fail("invalid profile: " + problems.front());
    // The planned pass (what is only counted, skipped, learnt from the blocks) gives what the
    // naive one gives, whatever the bytes: the differential test's reference on hostile input.
    if ((bits & 0x03) != 0x03) {
        std::string reference;
        try {
            convert::ConversionReport report;
            reference = fxprof::profile_to_json(convert::build_profile(file.path(), naive_pass(options), report));
        } catch (const Error& e) {
            fail(std::string("the naive pass refuses what the planned one converts: ") + e.what());
        }
        if (reference != json) {
            std::size_t at = 0;
            while (at < json.size() && at < reference.size() && json[at] == reference[at]) ++at;
            const std::size_t from = at > 80 ? at - 80 : 0;
            fail("the planned pass differs from the naive one at byte " + std::to_string(at) + ":\n  naive:   " +
                 reference.substr(from, 160) + "\n  planned: " + json.substr(from, 160));
        }
    }
    return 0;
}

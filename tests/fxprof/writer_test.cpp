// The JSON writer and the gzip sink: round trip through zlib, determinism, string repair,
// error propagation from the sink.
#include <boost/test/unit_test.hpp>
#include <zlib.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "fxprof_test_util.hpp"
#include "fxprof/gzip.hpp"
#include "fxprof/decimal.hpp"
#include "fxprof/json_emitter.hpp"
#include "fxprof/json_stream.hpp"
#include "util/error.hpp"
#include "util/utf8.hpp"

using namespace el2fx::fxprof;
using namespace el2fx::fxprof::testing;
using el2fx::Error;

namespace {

std::string gzip_profile(const Profile& p, WriteStats* stats = nullptr) {
    std::string out;
    StringSink sink(out);
    GzipSink gz(sink);
    const WriteStats s = write_profile_json(p, gz);
    gz.finish();
    if (stats) *stats = s;
    return out;
}

// Inflate with zlib directly (not through the library's gunzip).
std::string inflate_with_zlib(const std::string& gz) {
    z_stream zs{};
    BOOST_REQUIRE(inflateInit2(&zs, 15 + 16) == Z_OK);
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz.data()));
    zs.avail_in = static_cast<uInt>(gz.size());
    std::string out;
    char buf[4096];
    int rc;
    do {
        zs.next_out = reinterpret_cast<Bytef*>(buf);
        zs.avail_out = sizeof buf;
        rc = inflate(&zs, Z_NO_FLUSH);
        BOOST_REQUIRE(rc == Z_OK || rc == Z_STREAM_END);
        out.append(buf, sizeof buf - zs.avail_out);
    } while (rc != Z_STREAM_END);
    BOOST_TEST(zs.avail_in == 0u);
    inflateEnd(&zs);
    return out;
}

class FailingSink final : public ByteSink {
public:
    explicit FailingSink(std::size_t budget) : budget_(budget) {}
    void write(const char*, std::size_t size) override {
        if (size > budget_) throw Error("disk full (test)");
        budget_ -= size;
    }

private:
    std::size_t budget_;
};

}  // namespace

BOOST_AUTO_TEST_SUITE(json_writer)

BOOST_AUTO_TEST_CASE(gzip_round_trip_gives_the_same_json) {
    const Profile p = make_small_profile();
    const std::string plain = profile_to_json(p);
    WriteStats stats;
    const std::string gz = gzip_profile(p, &stats);
    BOOST_TEST(gz.size() < plain.size());
    BOOST_TEST(stats.json_bytes == plain.size());
    const std::string inflated = inflate_with_zlib(gz);
    BOOST_TEST((parse_json(inflated) == parse_json(plain)));
    BOOST_TEST(gunzip(gz) == inflated);
}

BOOST_AUTO_TEST_CASE(compression_levels) {
    std::string out;
    StringSink sink(out);
    BOOST_CHECK_THROW(GzipSink(sink, 42), Error);  // zlib refuses the level
    const std::string json = profile_to_json(make_small_profile());
    for (int level : {1, 6, 9}) {
        std::string gz;
        StringSink s(gz);
        GzipSink z(s, level);
        z.write(json.data(), json.size());
        z.finish();
        BOOST_TEST(inflate_with_zlib(gz) == json);
        BOOST_CHECK_THROW(z.write("x", 1), Error);  // finished
    }
}

BOOST_AUTO_TEST_CASE(gzip_header_has_no_timestamp) {
    const std::string gz = gzip_profile(make_small_profile());
    BOOST_REQUIRE(gz.size() > 10);
    BOOST_TEST(static_cast<unsigned char>(gz[0]) == 0x1fu);
    BOOST_TEST(static_cast<unsigned char>(gz[1]) == 0x8bu);
    BOOST_TEST(static_cast<unsigned char>(gz[2]) == 8u);                 // deflate
    BOOST_TEST((gz[4] == 0 && gz[5] == 0 && gz[6] == 0 && gz[7] == 0));  // mtime 0
    BOOST_TEST(static_cast<unsigned char>(gz[9]) == 255u);               // OS unknown
}

BOOST_AUTO_TEST_CASE(building_twice_gives_identical_bytes) {
    const std::string a = gzip_profile(make_small_profile());
    const std::string b = gzip_profile(make_small_profile());
    BOOST_TEST((a == b));
    BOOST_TEST(profile_to_json(make_small_profile()) == profile_to_json(make_small_profile()));
}

BOOST_AUTO_TEST_CASE(large_output_streams_through_the_sink) {
    Profile p("big");
    const ProcessHandle proc = p.add_process("p", "1", ms(0));
    const ThreadHandle t = p.add_thread(proc, "t", 1, ms(0), true);
    const StackHandle s = p.handle_for_stack(
        std::nullopt, p.handle_for_frame({.func = p.handle_for_func({.name = p.handle_for_string("f")})}));
    p.reserve_samples(t, 200000);
    for (int i = 0; i < 200000; ++i)
        p.add_sample(t, Timestamp::from_nanos(std::int64_t(i) * 1000003), s, CpuDelta::from_nanos(i % 1000000));
    WriteStats stats;
    const std::string gz = gzip_profile(p, &stats);
    BOOST_TEST(stats.json_bytes > 64u * 1024u * 4u);  // several stream buffers
    const auto doc = parse_json(gunzip(gz));
    BOOST_TEST(at(at(at(at(doc, "threads"), 0), "samples"), "length").GetInt() == 200000);
}

BOOST_AUTO_TEST_CASE(invalid_utf8_is_written_as_replacement_characters) {
    Profile p("product \xff");
    const ProcessHandle proc = p.add_process("proc\xc3", "1", ms(0));
    const ThreadHandle t = p.add_thread(proc, "caf\xC3\xA9 \xE2\x82", 1, ms(0), true);
    const auto schema = p.register_marker_schema({.name = "S", .fields = {{"k\xff", "label", FieldFormat::string}}});
    p.add_marker(t, MarkerTiming::instant(ms(0)), p.handle_for_string("n\x80"), Profile::default_category(), schema,
                 {p.handle_for_string("v\xfe")});
    WriteStats stats;
    const std::string json = profile_to_json(p, &stats);
    BOOST_TEST(el2fx::utf8::is_valid(json));
    const auto doc = parse_json(json);  // RapidJSON accepts it
    const std::string fffd = "\xEF\xBF\xBD";
    BOOST_TEST(std::string(at(at(doc, "meta"), "product").GetString()) == "product " + fffd);
    BOOST_TEST(std::string(at(at(at(doc, "threads"), 0), "name").GetString()) == "caf\xC3\xA9 " + fffd);
    BOOST_TEST(std::string(at(at(at(doc, "threads"), 0), "processName").GetString()) == "proc" + fffd);
    const auto& data = at(at(at(at(at(doc, "threads"), 0), "markers"), "data"), 0);
    BOOST_TEST(std::string(at(data, ("k" + fffd).c_str()).GetString()) == "v" + fffd);
    BOOST_TEST(stats.repaired_strings >= 5u);
    // The string table keeps the bytes; only the output is repaired.
    BOOST_TEST(p.strings().get(p.handle_for_string("n\x80")) == "n\x80");
}

BOOST_AUTO_TEST_CASE(control_characters_and_quotes_are_escaped) {
    Profile p("a\"b\\c\n\t\x01");
    const auto doc = parse_json(profile_to_json(p));
    BOOST_TEST(std::string(at(at(doc, "meta"), "product").GetString()) == "a\"b\\c\n\t\x01");
}

BOOST_AUTO_TEST_CASE(sink_errors_propagate) {
    const Profile p = make_small_profile();
    FailingSink sink(100);
    BOOST_CHECK_THROW(write_profile_json(p, sink), Error);
    FailingSink gz_down(10);
    BOOST_CHECK_THROW(
        {
            GzipSink gz(gz_down);
            write_profile_json(p, gz);
            gz.finish();
        },
        Error);
}

BOOST_AUTO_TEST_CASE(emitter_refuses_what_is_not_json) {
    std::string out;
    StringSink sink(out);
    JsonOutStream os(sink);
    JsonEmitter j(os);
    j.begin_array();
    BOOST_CHECK_THROW(j.number(std::numeric_limits<double>::quiet_NaN()), Error);
    j.number(1.0);
    j.number(0.1);
    j.number(-0.0);
    j.scaled(1500000, 6);
    j.end_array();
    BOOST_TEST(j.complete());
    os.Flush();
    BOOST_TEST(out == "[1,0.1,0,1.5]");
}

BOOST_AUTO_TEST_CASE(an_emitter_restarted_writes_the_next_value_as_a_new_one_and_counts_repairs_on) {
    std::string out;
    StringSink sink(out);
    JsonOutStream os(sink);
    JsonEmitter j(os);
    j.begin_array();
    j.uint64(1);
    j.string("bad \xff");
    j.end_array();
    BOOST_TEST(j.complete());
    j.restart();
    BOOST_TEST(!j.complete());
    os.Put('|');
    // The first value after a restart has no comma before it, though the last one ended an array.
    j.begin_array();
    j.int64(-2);
    j.string("\xc3");
    j.end_array();
    BOOST_TEST(j.complete());
    j.restart();
    os.Put('|');
    j.begin_object();
    j.key("k");
    j.null();
    j.end_object();
    BOOST_TEST(j.complete());
    os.Flush();
    BOOST_TEST(out == "[1,\"bad \xef\xbf\xbd\"]|[-2,\"\xef\xbf\xbd\"]|{\"k\":null}");
    BOOST_TEST(j.repaired_strings() == 2u);
}

BOOST_AUTO_TEST_CASE(repeated_literals_are_the_bytes_of_values_written_one_by_one) {
    // Across the emitter's pieces (1024 values each), between other values, and none at all.
    for (std::size_t n : {0u, 1u, 2u, 1023u, 1024u, 1025u, 2048u, 3000u}) {
        std::string by_value, repeated;
        {
            StringSink sink(by_value);
            JsonOutStream os(sink);
            JsonEmitter j(os);
            j.begin_array();
            j.uint64(7);
            j.begin_array();
            for (std::size_t i = 0; i < n; ++i) j.null();
            j.end_array();
            for (std::size_t i = 0; i < n; ++i) j.int64(-1);
            j.uint64(8);
            j.end_array();
            BOOST_TEST(j.complete());
            os.Flush();
        }
        {
            StringSink sink(repeated);
            JsonOutStream os(sink);
            JsonEmitter j(os);
            j.begin_array();
            j.uint64(7);
            j.begin_array();
            j.repeated("null", rapidjson::kNullType, n);
            j.end_array();
            j.repeated("-1", rapidjson::kNumberType, n);
            j.uint64(8);
            j.end_array();
            BOOST_TEST(j.complete());
            os.Flush();
        }
        BOOST_TEST(repeated == by_value, n);
        BOOST_TEST(parse_json(repeated).IsArray());
    }
}

// A random scaled decimal, and the reference writer's text for it.
struct Scaled {
    std::int64_t value;
    unsigned scale;
};
template <class Random>
Scaled random_scaled(Random& random) {
    return Scaled{static_cast<std::int64_t>(random()), static_cast<unsigned>(random() % 19)};
}
void reference_scaled(rapidjson::Writer<rapidjson::StringBuffer>& reference, Scaled s) {
    char text[kDecimalBufferSize];
    reference.RawValue(text, format_scaled_decimal(s.value, s.scale, text), rapidjson::kNumberType);
}

// A flat object of random members, through the emitter's flat calls and the reference
// writer's object: keys that need escaping or repair, every kind of value.
template <class Random>
void flat_object(JsonEmitter& j, rapidjson::Writer<rapidjson::StringBuffer>& reference, Random& random) {
    static const std::vector<std::string> keys = {"type", "k", "a \"quoted\" key", "bad \xff byte", "tab\there", ""};
    static const std::vector<std::string> texts = {"", "plain", "\"\\\n\x01/", "caf\xc3\xa9", "\xc3 cut", "\x7f"};
    j.begin_flat_object();
    reference.StartObject();
    const int members = static_cast<int>(random() % 5);
    for (int m = 0; m < members; ++m) {
        const std::string& k = keys[random() % keys.size()];
        j.flat_key(JsonEmitter::encode(k));
        std::string fixed;
        el2fx::utf8::append_sanitized(fixed, k);
        reference.Key(fixed.data(), static_cast<rapidjson::SizeType>(fixed.size()));
        switch (random() % 6) {
            case 0: {
                const std::string& t = texts[random() % texts.size()];
                j.flat_string(t);
                std::string repaired;
                el2fx::utf8::append_sanitized(repaired, t);
                reference.String(repaired.data(), static_cast<rapidjson::SizeType>(repaired.size()));
                break;
            }
            case 1: {
                const std::string& t = texts[random() % texts.size()];
                j.flat_encoded_string(JsonEmitter::encode(t));
                std::string repaired;
                el2fx::utf8::append_sanitized(repaired, t);
                reference.String(repaired.data(), static_cast<rapidjson::SizeType>(repaired.size()));
                break;
            }
            case 2: {
                const std::int64_t i = random() % 2 ? std::numeric_limits<std::int64_t>::min()
                                                    : static_cast<std::int64_t>(random()) >> (random() % 64);
                j.flat_int64(i);
                reference.Int64(i);
                break;
            }
            case 3: {
                const std::uint64_t u = random() % 2 ? std::numeric_limits<std::uint64_t>::max() : random() >> (random() % 64);
                j.flat_uint64(u);
                reference.Uint64(u);
                break;
            }
            case 4: {
                const double d = random() % 2 ? static_cast<double>(static_cast<std::int64_t>(random()) >> (random() % 64))
                                              : std::ldexp(static_cast<double>(random() >> 11), -static_cast<int>(random() % 80));
                j.flat_number(d);
                constexpr double kExactIntegerLimit = 9007199254740992.0;
                if (d == std::trunc(d) && std::fabs(d) < kExactIntegerLimit)
                    reference.Int64(static_cast<std::int64_t>(d));
                else
                    reference.Double(d);
                break;
            }
            default: {
                const Scaled d = random_scaled(random);
                j.flat_scaled(d.value, d.scale);
                reference_scaled(reference, d);
                break;
            }
        }
    }
    j.end_flat_object();
    reference.EndObject();
}

BOOST_AUTO_TEST_CASE(emitter_writes_the_bytes_of_rapidjson_s_writer) {
    // The emitter puts values that follow another in an array itself: random documents of
    // nested arrays and objects, numbers at their limits, scaled decimals, flat objects,
    // literals and strings, both ways.
    std::mt19937_64 random(42);
    for (int doc = 0; doc < 200; ++doc) {
        std::string ours, theirs;
        StringSink sink(ours);
        JsonOutStream os(sink);
        JsonEmitter j(os);
        rapidjson::StringBuffer buffer;
        rapidjson::Writer<rapidjson::StringBuffer> reference(buffer);
        std::vector<bool> in_array;  // the open levels
        const auto value = [&] {
            switch (random() % 10) {
                case 0: j.null(); reference.Null(); break;
                case 1: { const bool b = random() % 2; j.boolean(b); reference.Bool(b); break; }
                case 2: {
                    const std::int64_t i = random() % 3 == 0 ? std::numeric_limits<std::int64_t>::min()
                                           : random() % 2   ? std::numeric_limits<std::int64_t>::max()
                                                            : static_cast<std::int64_t>(random()) >> (random() % 64);
                    j.int64(i);
                    reference.Int64(i);
                    break;
                }
                case 3: {
                    const std::uint64_t u = random() % 3 == 0 ? std::numeric_limits<std::uint64_t>::max()
                                                              : random() >> (random() % 64);
                    j.uint64(u);
                    reference.Uint64(u);
                    break;
                }
                case 4: j.string("s"); reference.String("s"); break;
                case 5: j.begin_array(); reference.StartArray(); in_array.push_back(true); break;
                case 6: {
                    const Scaled d = random_scaled(random);
                    j.scaled(d.value, d.scale);
                    reference_scaled(reference, d);
                    break;
                }
                case 7:
                case 8: flat_object(j, reference, random); break;
                default: j.begin_object(); reference.StartObject(); in_array.push_back(false); break;
            }
        };
        const auto close = [&] {
            if (in_array.back()) {
                j.end_array();
                reference.EndArray();
            } else {
                j.end_object();
                reference.EndObject();
            }
            in_array.pop_back();
        };
        j.begin_array();
        reference.StartArray();
        in_array.push_back(true);
        for (int step = 0; step < 2000; ++step) {
            if (in_array.size() > 1 && random() % 8 == 0) {
                close();
                continue;
            }
            if (!in_array.back()) {  // an object: a key, then its value
                j.key("k");
                reference.Key("k");
            }
            value();
        }
        while (!in_array.empty()) close();
        BOOST_TEST(j.complete());
        os.Flush();
        theirs = buffer.GetString();
        BOOST_TEST(ours == theirs, "document " << doc);
    }
}

BOOST_AUTO_TEST_CASE(gunzip_rejects_broken_input) {
    const std::string gz = gzip_profile(make_small_profile());
    BOOST_CHECK_THROW(gunzip(gz.substr(0, gz.size() / 2)), Error);
    BOOST_CHECK_THROW(gunzip("not gzip at all"), Error);
    std::string corrupt = gz;
    corrupt[gz.size() - 6] ^= 0x55;  // CRC
    BOOST_CHECK_THROW(gunzip(corrupt), Error);
    BOOST_TEST(gunzip(gz + gz).size() == 2 * gunzip(gz).size());  // two members
}

BOOST_AUTO_TEST_SUITE_END()

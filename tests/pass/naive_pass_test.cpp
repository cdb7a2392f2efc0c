// The differential test of the pass plan: a conversion whose passes decode only what their
// parts read and count what they only count must give the profile a naive one gives (every
// record decoded and given to every part, nothing counted in the reader's place). On a log with an event of every type the decoder
// knows, on every fixture of every GHC, and on ghc-events' test data.
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <string>

#include "convert/converter.hpp"
#include "eventlog/event_types.hpp"
#include "fxprof/profile_writer.hpp"
#include "eventlog_builder.hpp"
#include "eventlog_files.hpp"
#include "run_process.hpp"
#include "temp_file.hpp"
#include "upstream_data.hpp"

using namespace el2fx;
namespace ev = el2fx::eventlog;

namespace {

std::string profile_json(const std::string& log, pass::PassMode mode, convert::ConvertOptions options = {}) {
    options.pass_mode = mode;
    convert::ConversionReport report;
    return fxprof::profile_to_json(convert::build_profile(log, options, report));
}

// The same profile whatever the plan (the first difference named, not a 1 MB diff).
void same_profile_in_every_mode(const std::string& log, const convert::ConvertOptions& options = {}) {
    const std::string naive = profile_json(log, pass::PassMode::naive, options);
    const std::string planned = profile_json(log, pass::PassMode::planned, options);
    if (planned == naive) return;
    std::size_t at = 0;
    while (at < planned.size() && at < naive.size() && planned[at] == naive[at]) ++at;
    const std::size_t from = at > 120 ? at - 120 : 0;
    BOOST_ERROR("the planned pass differs at byte " << at << ":\n  naive:   " << naive.substr(from, 240)
                                                    << "\n  planned: " << planned.substr(from, 240));
}

// A payload of every type with a few fields set, so that the analyses act on it.
template <typename T>
T sample_payload() {
    T p{};
    if constexpr (requires { p.thread; }) p.thread = 2;
    if constexpr (requires { p.cap; }) p.cap = 1;
    if constexpr (requires { p.gen; }) p.gen = 1;
    return p;
}

// A well-formed log (blocks with their end times, so the index reads them as in order) of two
// capabilities whose threads run, block, collect and end, with an event of every type the
// decoder knows in the middle of capability 0's block.
std::string every_event_type_log() {
    testing::EventlogBuilder b;
    [&]<typename... Ts>(ev::TypeList<Ts...>) { (b.declare<Ts>(), ...); }(ev::AllPayloads{});
    b.begin_block(1, 0xFFFF, 5);
    b.event(1, ev::CapsetCreate{0, 2});
    b.event(2, ev::CapCreate{0});
    b.event(3, ev::CapCreate{1});
    b.event(4, ev::ProgramArgs{0, ev::StringList{std::string_view("/home/a/prog\0--size\0/tmp/x", 27)}});
    b.event(4, ev::ProgramEnv{0, ev::StringList{std::string_view("HOME=/home/a", 12)}});
    b.event(5, ev::OsProcessPid{0, 42});
    b.end_block();
    std::uint64_t t = 100;
    b.begin_block(t, 0, 0);
    b.event(t++, ev::CreateThread{1});
    b.event(t++, ev::CreateThread{2});
    b.event(t++, ev::ThreadLabel{2, ev::Text{"worker"}});
    b.event(t++, ev::UserMessage{ev::Text{"phase 1"}});
    b.event(t++, ev::RunThread{1});
    [&]<typename... Ts>(ev::TypeList<Ts...>) {
        (
            [&] {
                if constexpr (Ts::tag != ev::BlockMarker::tag) {
                    b.event(t, sample_payload<Ts>());
                    t += 10;
                }
            }(),
            ...);
    }(ev::AllPayloads{});
    b.event(t++, ev::StopThread{1, 5, 0});
    b.event(t++, ev::RunThread{2});
    b.event(t++, ev::StopThread{2, 5, 0});
    b.end_block();
    b.begin_block(150, 1, 0);
    for (std::uint64_t u = 150; u < t; u += 100) {
        b.event(u, ev::RunThread{3});
        b.event(u + 20, ev::StopThread{3, 1, 0});
        b.event(u + 30, ev::StartGC{});
        b.event(u + 40, ev::EndGC{});
    }
    b.end_block();
    return b.finish();
}

// Two capabilities' blocks of thousands of short-lived threads (created, run, blocked,
// woken, finished; a few still live at the end, a few events after a finish), too many for
// their names in a small profile: the folded threads' lives are then kept beside the reader.
std::string many_threads_log() {
    testing::EventlogBuilder b;
    b.declare_block_marker()
        .declare<ev::CreateThread>()
        .declare<ev::RunThread>()
        .declare<ev::StopThread>()
        .declare<ev::WakeupThread>()
        .declare<ev::ThreadLabel>()
        .declare<ev::CapCreate>();
    constexpr std::uint64_t kEnd = 40'000'000;
    for (ev::CapNo cap = 0; cap < 2; ++cap) {
        b.begin_block(100 + cap, cap, kEnd);
        std::uint64_t t = 100 + cap;
        b.event(t, ev::CapCreate{cap});
        for (ev::ThreadId id = 1 + cap; id < 6000; id += 2) {
            b.event(t += 50, ev::CreateThread{id});
            if (id % 97 == 0) b.event(t += 10, ev::ThreadLabel{id, ev::Text{"handler"}});
            b.event(t += 100, ev::RunThread{id});
            b.event(t += 1000 + id % 7 * 500, ev::StopThread{id, 7, 0});  // blocked on an MVar
            b.event(t += 200, ev::WakeupThread{id, cap});
            b.event(t += 3000, ev::RunThread{id});
            if (id > 5990) continue;  // live at the end
            b.event(t += 400 + id % 13 * 100, ev::StopThread{id, id % 5 == 0 ? std::uint16_t{3} : std::uint16_t{5}, 0});
            if (id % 5 == 0) {  // yielded, then finished
                b.event(t += 100, ev::RunThread{id});
                b.event(t += 100, ev::StopThread{id, 5, 0});
            }
            if (id % 1001 == 0) b.event(t += 10, ev::WakeupThread{id, cap});  // after its finish
        }
        b.end_block();
    }
    return b.finish();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(naive_pass)

// The threads' lives beside the reader (analysis/threading/reader_thread_lives.hpp): only in
// a planned pass; the folded threads' too where the budget leaves them without their names.
BOOST_AUTO_TEST_CASE(the_threads_lives_beside_the_reader_give_the_same_profile) {
    const testing::TempFile log(many_threads_log());
    convert::ConvertOptions small;  // folded threads without their names
    small.max_threads = 8;
    small.max_profile_bytes = 400'000;
    convert::ConvertOptions named = small;  // with them
    named.max_profile_bytes = 200'000'000;
    for (convert::ConvertOptions options : {small, named}) {
        convert::ConversionReport planned;
        options.pass_mode = pass::PassMode::planned;
        (void)convert::build_profile(log.path, options, planned);
        BOOST_TEST(planned.timings.lives_beside_reader);
        BOOST_TEST(planned.diagnostics.count(Diagnostic::event_after_thread_finished) > 0u);
        BOOST_TEST(planned.detail.detail.folded_names == (options.max_profile_bytes == named.max_profile_bytes));
        same_profile_in_every_mode(log.path, options);
    }
}

BOOST_AUTO_TEST_CASE(a_log_of_every_event_type_gives_the_same_profile) {
    const testing::TempFile log(every_event_type_log());
    same_profile_in_every_mode(log.path);
    convert::ConvertOptions several;  // other parts and details: every thread, env, arguments redacted
    several.all_threads = true;
    several.include_env = true;
    several.redact_args = true;
    same_profile_in_every_mode(log.path, several);
}

BOOST_AUTO_TEST_CASE(every_fixture_of_every_ghc_gives_the_same_profile) {
    const std::string dir = testing::env_dir("EL2FX_FIXTURES");
    BOOST_REQUIRE_MESSAGE(!dir.empty(), "EL2FX_FIXTURES is not set");
    std::size_t logs = 0;
    for (const std::filesystem::path& file : testing::eventlogs_in(dir)) {
        BOOST_TEST_CONTEXT(file.lexically_relative(dir).string()) {
            same_profile_in_every_mode(file.string());
            ++logs;
        }
    }
    BOOST_TEST(logs >= 30u);
}

BOOST_AUTO_TEST_CASE(ghc_events_test_data_gives_the_same_profile, UPSTREAM_DATA) {
    const auto dir = testing::upstream_data_dir();
    BOOST_REQUIRE(dir);
    std::size_t logs = 0;
    for (const std::filesystem::path& file : testing::eventlogs_in(*dir)) {
        BOOST_TEST_CONTEXT(file.filename().string()) {
            try {
                same_profile_in_every_mode(file.string());
                ++logs;
            } catch (const Error& e) {  // one the converter refuses is refused in every mode
                BOOST_CHECK_THROW(profile_json(file.string(), pass::PassMode::planned), Error);
                BOOST_TEST_MESSAGE(file.filename().string() << ": " << e.what());
            }
        }
    }
    BOOST_TEST(logs > 0u);
}

BOOST_AUTO_TEST_SUITE_END()

// eventlog2fxprof: GHC eventlogs → Firefox Profiler profiles.
// The CLI is the only place that prints and chooses exit codes.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include <cxxopts.hpp>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/threading/sampling_interval.hpp"
#include "cli/attach_command.hpp"
#include "cli/compare_options.hpp"
#include "cli/convert_command.hpp"
#include "cli/dump_command.hpp"
#include "cli/exit_codes.hpp"
#include "cli/interrupt_cleanup.hpp"
#include "cli/record_command.hpp"
#include "cli/summary_command.hpp"
#include "cli/version.hpp"
#include "cli/window_options.hpp"
#include "cli/serve_command.hpp"
#include "util/error.hpp"

namespace {

using namespace el2fx::cli;

constexpr const char* kUsage =
    "usage: eventlog2fxprof [convert] [options] FILE  write FILE's profile (prog.eventlog → prog.json.gz)\n"
    "       eventlog2fxprof A.eventlog B.eventlog [--names a,b] [-o both.json.gz]  runs side by side\n"
    "       eventlog2fxprof serve PROFILE.json.gz   serve it and print the link that opens it in the profiler\n"
    "       eventlog2fxprof dump [options] FILE     print events as `ghc-events show` does\n"
    "       eventlog2fxprof dump --stats FILE       count events per type\n"
    "       eventlog2fxprof summary [--json] FILE   the +RTS -s statistics, from the events\n"
    "       eventlog2fxprof compare BEFORE AFTER   the runs' figures side by side (BEFORE... -- AFTER...: several)\n"
    "       eventlog2fxprof record [OPTIONS] -- PROGRAM [ARGS...]  run a GHC program, profile it, open the profile\n"
    "       eventlog2fxprof attach SOCKET|FIFO|HOST:PORT|- [--duration TIME]  record a running program's streamed "
    "eventlog\n"
    "       eventlog2fxprof -V|--version           the version, and the profile format it writes\n"
    "FILE may be - for standard input, or a FIFO.\n"
    "Run `eventlog2fxprof dump --help` for the options of a command; `man eventlog2fxprof` for all.\n";

// The subcommands' common parsing: `positional` takes the bare arguments; --help prints the
// help (exit 0) and a missing positional argument is a usage error naming `what`. nullopt
// with `status` set when the command should stop there.
std::optional<cxxopts::ParseResult> parse_command(cxxopts::Options& options, int argc, char** argv,
                                                  const char* positional, const char* positional_help, const char* what,
                                                  int& status) {
    options.parse_positional({positional});
    options.positional_help(positional_help);
    auto args = options.parse(argc, argv);
    if (args.count("help")) {
        std::fputs(options.help().c_str(), stdout);
        status = kOk;
        return std::nullopt;
    }
    if (!args.count(positional)) {
        std::fprintf(stderr, "%s: missing %s\n", options.program().c_str(), what);
        status = kUsageError;
        return std::nullopt;
    }
    return args;
}

// A command that reads one eventlog (dump, summary): adds --strict, -q, --help and the input,
// then parses as parse_command does.
std::optional<cxxopts::ParseResult> parse_input_command(cxxopts::Options& options, int argc, char** argv, int& status) {
    // clang-format off: one option per line
    options.add_options()("strict", "exit with status 3 if any data was lost (truncated input, skipped events)")(
        "q,quiet", "no progress line on standard error (shown on a terminal for work over a second)")(
        "h,help", "show this help")("input", "eventlog file, or - for standard input", cxxopts::value<std::string>());
    // clang-format on
    return parse_command(options, argc, argv, "input", "FILE", "FILE", status);
}

// The conversion options that convert, record and attach share.
void add_conversion_options(cxxopts::Options& options) {
    // clang-format off: one option per line
    options.add_options()("interval", "sampling interval of the virtual timer (e.g. 1ms, 200us)",
                          cxxopts::value<std::string>())(
        "max-threads", "Haskell threads with a track of their own; the rest share one track",
        cxxopts::value<std::size_t>())("all-threads", "a track for every Haskell thread")(
        "heap-bands",
        "heap-profile bands in the band chart (default 9, a colour each); the rest are added up as \"other\"",
        cxxopts::value<std::size_t>())(
        "include-env", "put the program's environment variables into the profile (they may hold secrets)")(
        "no-user-messages", "leave traceEvent messages out (START/STOP spans stay): for huge eventlogs")(
        "spark-burst-gap", "spark events of a kind closer than this make one marker (default 10us; 0: one each)",
        cxxopts::value<std::string>())(
        "marker-resolution",
        "spans shorter than this are merged into one counted marker per group "
        "(default: the interval, coarser for logs over 100 s; 0: a marker for every span)",
        cxxopts::value<std::string>())(
        "max-profile-size",
        "keep the profile's JSON within this size (default 200MB; e.g. 50MB, 1GB; 0: no limit): "
        "the detail grows coarser only as far as needed",
        cxxopts::value<std::string>())(
        "stats", "also list the event types in FILE: their counts and where the profile shows each (a list per FILE)")(
        "timings", "print the wall time of each phase of the conversion on standard error")(
        "redact-args", "write the program's arguments as [redacted] (argv[0] keeps its file name)")(
        "redact-paths", "reduce absolute paths in any text to their file names");
    // clang-format on
}

// "200MB", "1.5GB", "500kB", "64MiB", "1000000" (bytes) → bytes, for --max-profile-size.
std::uint64_t parse_size(const std::string& option, const std::string& text) {
    std::size_t end = 0;
    double value = -1;
    try {
        value = std::stod(text, &end);
    } catch (const std::exception&) {
        end = 0;
    }
    std::string unit = text.substr(end);
    for (char& ch : unit) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    static const std::pair<const char*, double> units[] = {
        {"", 1},    {"b", 1},    {"k", 1e3},      {"kb", 1e3},        {"m", 1e6},           {"mb", 1e6},
        {"g", 1e9}, {"gb", 1e9}, {"kib", 1024.0}, {"mib", 1048576.0}, {"gib", 1073741824.0}};
    if (end == 0 || !(value >= 0) || text.find_first_of("+-eExXpP ") != std::string::npos) unit = "?";
    for (const auto& [name, scale] : units)
        if (unit == name && value * scale < 1.8e19) return static_cast<std::uint64_t>(value * scale);
    throw cxxopts::exceptions::exception("--" + option + " " + text + ": not a size (e.g. 200MB, 1GB, 0 for no limit)");
}

void read_conversion_options(const cxxopts::ParseResult& args, el2fx::convert::ConvertOptions& options) {
    if (args.count("max-profile-size"))
        options.max_profile_bytes = parse_size("max-profile-size", args["max-profile-size"].as<std::string>());
    if (args.count("interval")) {
        const std::string interval = args["interval"].as<std::string>();
        options.sampling_interval_ns = parse_time(interval);
        options.sampling_interval_fixed = true;
        try {  // the analysis's own check, reported as the bad command line it is
            el2fx::analysis::check_sampling_interval(options.sampling_interval_ns);
        } catch (const el2fx::Error& e) {
            throw cxxopts::exceptions::exception("--interval " + interval + ": " + e.what());
        }
    }
    if (args.count("max-threads")) options.max_threads = args["max-threads"].as<std::size_t>();
    options.all_threads = args.count("all-threads") > 0;
    if (args.count("heap-bands")) options.heap_bands = args["heap-bands"].as<std::size_t>();
    options.include_env = args.count("include-env") > 0;
    options.user_messages = args.count("no-user-messages") == 0;
    if (args.count("spark-burst-gap"))
        options.spark_burst_gap_ns = parse_time(args["spark-burst-gap"].as<std::string>());
    if (args.count("marker-resolution"))
        options.marker_resolution_ns = parse_time(args["marker-resolution"].as<std::string>());
    options.redact_args = args.count("redact-args") > 0;
    options.redact_paths = args.count("redact-paths") > 0;
    if (args.count("sources")) options.source_dirs = args["sources"].as<std::vector<std::string>>();
}

int dump_main(int argc, char** argv) {
    cxxopts::Options options("eventlog2fxprof dump",
                             "Print an eventlog's events in time order, as `ghc-events show` does.");
    // clang-format off: one option per line
    options.add_options()("type",
                          "only events of this type: tag number, GHC name (STOP_THREAD) or description; repeatable",
                          cxxopts::value<std::vector<std::string>>())("cap", "only events of this capability",
                                                                      cxxopts::value<unsigned>())(
        "thread", "only events about this Haskell thread", cxxopts::value<unsigned>())(
        "from", "only events at or after this time (ns, or with unit: 1.5ms, 2s)", cxxopts::value<std::string>())(
        "to", "only events at or before this time", cxxopts::value<std::string>())(
        "stats", "count and bytes per event type, blocks, time span, warnings (file order, one pass)")(
        "spans", "the threading analyses' spans (GC, mutator, idle per capability; running, blocked per thread)");
    // clang-format on
    int status = kOk;
    auto parsed = parse_input_command(options, argc, argv, status);
    if (!parsed) return status;
    const cxxopts::ParseResult& args = *parsed;
    DumpOptions dump;
    dump.input = args["input"].as<std::string>();
    dump.stats = args.count("stats") > 0;
    dump.spans = args.count("spans") > 0;
    dump.strict = args.count("strict") > 0;
    dump.quiet = args.count("quiet") > 0;
    if (args.count("type"))
        for (const auto& t : args["type"].as<std::vector<std::string>>()) dump.filter.add_type(t);
    if (args.count("cap")) dump.filter.cap = static_cast<std::uint16_t>(args["cap"].as<unsigned>());
    if (args.count("thread")) dump.filter.thread = args["thread"].as<unsigned>();
    if (args.count("from")) dump.filter.from = parse_time(args["from"].as<std::string>());
    if (args.count("to")) dump.filter.to = parse_time(args["to"].as<std::string>());
    return run_dump(std::move(dump), stdout, stderr);
}

int serve_main(int argc, char** argv) {
    cxxopts::Options options("eventlog2fxprof serve",
                             "Serve profiles on this machine under a secret path and print the Firefox Profiler "
                             "link that opens them (two profiles: also the link that compares them). "
                             "Serves until Ctrl-C.");
    // clang-format off: one option per line
    options.add_options()("h,help", "show this help")("files", "profile files (.json.gz or .json)",
                                                      cxxopts::value<std::vector<std::string>>());
    // clang-format on
    add_serve_options(options);
    int status = kOk;
    auto parsed = parse_command(options, argc, argv, "files", "PROFILE.json.gz...", "PROFILE.json.gz", status);
    if (!parsed) return status;
    const cxxopts::ParseResult& args = *parsed;
    ServeCommand command;
    command.files = args["files"].as<std::vector<std::string>>();
    read_serve_options(args, command);
    return run_serve(command, stdout, stderr);
}

int summary_main(int argc, char** argv) {
    cxxopts::Options options("eventlog2fxprof summary",
                             "Print the statistics of +RTS -s, computed from the eventlog's events only, in the "
                             "runtime's layout; a figure the events cannot give is shown as ? with the reason.");
    // clang-format off: one option per line
    options.add_options()("json", "print JSON instead (every figure with its accuracy and a note)");
    // clang-format on
    add_window_options(options);
    int status = kOk;
    auto parsed = parse_input_command(options, argc, argv, status);
    if (!parsed) return status;
    const cxxopts::ParseResult& args = *parsed;
    SummaryCommand command;
    command.input = args["input"].as<std::string>();
    command.json = args.count("json") > 0;
    command.strict = args.count("strict") > 0;
    command.quiet = args.count("quiet") > 0;
    command.window = read_window_options(args);
    return run_summary(command, stdout, stderr);
}

// Options that record and attach share: the conversion's, -o, --open/--no-open, -q, --strict.
void add_recording_options(cxxopts::Options& options, bool open_by_default) {
    // clang-format off: one option per line
    options.add_options()("o,output",
                          open_by_default
                              ? "where to write the profile (default: PROGRAM.json.gz here)"
                              : "where to write the profile (- for standard output; default: SOCKET.json.gz or "
                                "HOST-PORT.json.gz here)",
                          cxxopts::value<std::string>())(
        "open", open_by_default ? "serve the profile and open it in the Firefox Profiler (the default)"
                                : "then serve the profile and open it in the Firefox Profiler (see `serve --help`)")(
        "no-open", "just write the profile")(
        "strict", "exit with status 3 if any data was lost (truncated input, skipped events)")(
        "q,quiet", "print nothing but warnings and errors (no progress line either)")("h,help", "show this help");
    // clang-format on
    add_conversion_options(options);
    add_serve_options(options);
}

void read_recording_options(const cxxopts::ParseResult& args, bool open_by_default, RecordingOutput& output) {
    if (args.count("output")) {
        output.output = args["output"].as<std::string>();
        if (output.output.empty()) throw el2fx::Error("-o needs a file name (- for standard output)");
    }
    read_conversion_options(args, output.options);
    output.open = args.count("no-open") ? false : args.count("open") ? true : open_by_default;
    output.strict = args.count("strict") > 0;
    output.quiet = args.count("quiet") > 0;
    output.stats = args.count("stats") > 0;
    output.timings = args.count("timings") > 0;
    read_serve_options(args, output.serve);
}

// A length of time for --duration and --interval-rts: a bare number would be nanoseconds
// (parse_time), never what was meant.
std::uint64_t parse_duration(const std::string& option, const std::string& text) {
    if (!text.empty() && text.find_first_not_of("0123456789.") == std::string::npos)
        throw cxxopts::exceptions::exception("--" + option + " needs a unit: " + text + "s, " + text + "ms");
    const std::uint64_t ns = parse_time(text);
    if (ns == 0) throw cxxopts::exceptions::exception("--" + option + " must be more than 0");
    return ns;
}

int record_main(int argc, char** argv) {
    cxxopts::Options options("eventlog2fxprof record",
                             "Run a GHC-built program with its eventlog going into a pipe, then convert it into "
                             "PROGRAM.json.gz and open it in the Firefox Profiler. The program needs -rtsopts "
                             "(and -eventlog before GHC 9.4). Its input, output and exit status stay its own; "
                             "Ctrl-C goes to it, a second Ctrl-C kills it. Exit status 4: it cannot be recorded.");
    // clang-format off: one option per line
    options.add_options()("heap", "record heap profile samples (-hT; -h for a profiled build)")(
        "sparks", "record every spark event (-lf)")("interval-rts", "the RTS's heap profile interval (-i; e.g. 100ms)",
                                                    cxxopts::value<std::string>())(
        "rts", "more RTS options, passed verbatim (\"-N4 -A64m\")", cxxopts::value<std::string>())(
        "dry-run", "print the command line it would run, and stop");
    // clang-format on
    add_recording_options(options, true);
    options.custom_help("[OPTIONS] -- PROGRAM [ARGS...]");
    // The program and its arguments start after "--", or at the first word that is not an option.
    static const std::vector<std::string> kValued = {
        "-o",           "--output",          "--interval-rts",      "--rts",  "--interval", "--max-threads",
        "--heap-bands", "--spark-burst-gap", "--marker-resolution", "--port", "--address",  "--profiler-url"};
    int split = 1;
    bool dashdash = false;
    for (; split < argc; ++split) {
        std::string a = argv[split];
        if (a == "--") {
            dashdash = true;
            break;
        }
        if (a.empty() || a[0] != '-') break;
        if (std::find(kValued.begin(), kValued.end(), a) != kValued.end()) ++split;
    }
    auto args = options.parse(split < argc ? split : argc, argv);
    if (args.count("help")) {
        std::fputs(options.help().c_str(), stdout);
        return kOk;
    }
    const int program_at = split + (dashdash ? 1 : 0);
    if (program_at >= argc) {
        std::fputs("eventlog2fxprof record: missing PROGRAM: eventlog2fxprof record [OPTIONS] -- PROGRAM [ARGS...]\n",
                   stderr);
        return kUsageError;
    }
    RecordCommand command;
    command.program = argv[program_at];
    for (int i = program_at + 1; i < argc; ++i) command.args.emplace_back(argv[i]);
    command.request.heap = args.count("heap") > 0;
    command.request.sparks = args.count("sparks") > 0;
    if (args.count("interval-rts"))
        command.request.rts_interval_ns = parse_duration("interval-rts", args["interval-rts"].as<std::string>());
    if (args.count("rts")) command.request.rts = args["rts"].as<std::string>();
    command.dry_run = args.count("dry-run") > 0;
    read_recording_options(args, true, command.output);
    return run_record(command, stdout, stderr);
}

int attach_main(int argc, char** argv) {
    cxxopts::Options options("eventlog2fxprof attach",
                             "Record the eventlog that a running program serves on a Unix socket or a TCP port "
                             "(the eventlog-socket library), writes into a FIFO (+RTS -l -ol/path/fifo), or pipes "
                             "in (-), until Ctrl-C, --duration or the end of the stream; then convert it. "
                             "HOST:PORT (127.0.0.1:4242, localhost:4242, [::1]:4242) is TCP unless a file of that "
                             "name exists; a path with a slash (./host:1) is always a path. Exit status 4: it "
                             "cannot connect, or nothing came.");
    // clang-format off: one option per line
    options.add_options()("duration", "stop after this long (e.g. 10s, 500ms)", cxxopts::value<std::string>())(
        "source", "the socket, FIFO, HOST:PORT, or - for standard input", cxxopts::value<std::string>());
    // clang-format on
    add_recording_options(options, false);
    int status = kOk;
    auto parsed = parse_command(options, argc, argv, "source", "SOCKET|FIFO|HOST:PORT|-", "SOCKET", status);
    if (!parsed) return status;
    const cxxopts::ParseResult& args = *parsed;
    AttachCommand command;
    command.source = args["source"].as<std::string>();
    if (args.count("duration")) command.duration_ns = parse_duration("duration", args["duration"].as<std::string>());
    read_recording_options(args, false, command.output);
    if (command.output.output.empty() && command.source == "-") {
        std::fputs("eventlog2fxprof attach: reading standard input: say where the profile goes with -o FILE\n", stderr);
        return kUsageError;
    }
    return run_attach(command, stdout, stderr);
}

int convert_main(int argc, char** argv) {
    cxxopts::Options options("eventlog2fxprof",
                             "Convert a GHC eventlog into a Firefox Profiler profile (gzipped JSON).");
    // clang-format off: one option per line
    options.add_options()("o,output",
                          "where to write the profile (- for standard output); default: beside FILE, .json.gz",
                          cxxopts::value<std::string>())(
        "names", "several eventlogs: name their processes (comma-separated, one per FILE)",
        cxxopts::value<std::vector<std::string>>())(
        "open", "then serve the profile and open it in the Firefox Profiler (see `serve --help`)")(
        "strict", "exit with status 3 if any data was lost (truncated input, skipped events)")(
        "q,quiet", "print nothing but warnings and errors (no progress line either)")("h,help", "show this help")(
        "input", "eventlog file, or - for standard input", cxxopts::value<std::vector<std::string>>());
    // clang-format on
    add_conversion_options(options);
    add_window_options(options);
    add_serve_options(options);
    options.parse_positional({"input"});
    options.positional_help("FILE...");
    auto args = options.parse(argc, argv);
    if (args.count("help")) {
        std::fputs(options.help().c_str(), stdout);
        return kOk;
    }
    if (!args.count("input")) {
        std::fputs("eventlog2fxprof: missing FILE\n", stderr);
        return kUsageError;
    }
    ConvertCommand command;
    command.inputs = args["input"].as<std::vector<std::string>>();
    command.input = command.inputs.front();
    if (args.count("names")) command.names = args["names"].as<std::vector<std::string>>();
    if (!command.names.empty() && command.names.size() != command.inputs.size()) {
        std::fprintf(stderr, "eventlog2fxprof: --names gives %zu names for %zu eventlogs\n", command.names.size(),
                     command.inputs.size());
        return kUsageError;
    }
    if (args.count("output")) {
        command.output = args["output"].as<std::string>();
        if (command.output.empty()) {  // not "the default path": a script's empty variable, most likely
            std::fputs("eventlog2fxprof: -o needs a file name (- for standard output)\n", stderr);
            return kUsageError;
        }
    }
    read_conversion_options(args, command.options);
    command.options.window.spec = read_window_options(args);
    command.stats = args.count("stats") > 0;
    command.timings = args.count("timings") > 0;
    command.strict = args.count("strict") > 0;
    command.quiet = args.count("quiet") > 0;
    // Interrupted, the conversion leaves no temporary file behind.
    auto convert = [&] {
        RemoveTempFilesOnSignal cleanup;
        return run_convert(command, stdout, stderr);
    };
    if (!args.count("open")) return convert();
    ServeCommand serve;
    read_serve_options(args, serve);
    serve.files = {output_path(command)};
    if (serve.files.front() == "-") {
        std::fputs("eventlog2fxprof: --open needs a file to serve, not -o -\n", stderr);
        return kUsageError;
    }
    struct stat st {};  // a device or FIFO is written into, but cannot be served afterwards
    if (::stat(serve.files.front().c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
        std::fprintf(stderr, "eventlog2fxprof: --open needs a regular file to serve, and %s is not one\n",
                     serve.files.front().c_str());
        return kUsageError;
    }
    int status = convert();
    return status == kOk ? run_serve(serve, stdout, stderr) : status;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2 || !std::strcmp(argv[1], "-h") || !std::strcmp(argv[1], "--help")) {
        std::fputs(kUsage, argc < 2 ? stderr : stdout);
        return argc < 2 ? kUsageError : kOk;
    }
    if (!std::strcmp(argv[1], "-V") || !std::strcmp(argv[1], "--version")) {
        std::fputs(version_text().c_str(), stdout);
        return kOk;
    }
    std::string command = argv[1];
    try {
        if (command == "dump") return dump_main(argc - 1, argv + 1);
        if (command == "summary") return summary_main(argc - 1, argv + 1);
        if (command == "compare") return compare_main(argc - 1, argv + 1);
        if (command == "convert") return convert_main(argc - 1, argv + 1);
        if (command == "serve") return serve_main(argc - 1, argv + 1);
        if (command == "record") return record_main(argc - 1, argv + 1);
        if (command == "attach") return attach_main(argc - 1, argv + 1);
        // No command: the main job, converting.
        return convert_main(argc, argv);
    } catch (const cxxopts::exceptions::exception& e) {
        std::fprintf(stderr, "eventlog2fxprof %s: %s\n", command.c_str(), e.what());
        return kUsageError;
    } catch (const el2fx::Error& e) {
        std::fprintf(stderr, "eventlog2fxprof: error: %s\n", e.what());
        return kInputError;
    } catch (const std::bad_alloc&) {
        std::fputs("eventlog2fxprof: error: out of memory\n", stderr);
        return kInputError;
    }
}

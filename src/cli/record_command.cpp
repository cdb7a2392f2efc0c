#include "cli/record_command.hpp"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/exit_codes.hpp"
#include "cli/convert_command.hpp"
#include "cli/progress_line.hpp"
#include "convert/converter.hpp"
#include "redaction/path_redaction.hpp"
#include "util/temp_files.hpp"
#include "record/child_process.hpp"
#include "record/private_dir.hpp"
#include "record/program_probe.hpp"
#include "record/stream_capture.hpp"
#include "util/error.hpp"

namespace el2fx::cli {

namespace recording {
namespace {

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

std::atomic<int> g_phase{0};
std::atomic<int> g_interrupts{0};
std::atomic<bool> g_stop{false};

extern "C" void on_recording_signal(int sig, siginfo_t* info, void*) {
    const int phase = g_phase.load();
    if (phase == SignalPhases::kRecordingChild) {
        if (g_interrupts.fetch_add(1) >= 1) {
            record::signal_recorded_child(SIGKILL);  // the second: stop it hard
        } else if (info == nullptr || info->si_code <= 0) {
            // Sent by a process (kill, timeout): pass it on. From the terminal (si_code > 0)
            // the program has had it already: it shares our process group.
            record::signal_recorded_child(sig);
        }
        return;
    }
    if (phase == SignalPhases::kAttaching) {
        g_interrupts.fetch_add(1);
        g_stop.store(true);
        return;
    }
    // Converting (or anything else): leave nothing behind, then end by the signal.
    util::remove_registered_temp_files();  // the profile being written, the private directory
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    ::sigaction(sig, &dfl, nullptr);
    ::raise(sig);  // blocked until the handler returns, then it ends the process
}

}  // namespace

SignalPhases::SignalPhases(Phase phase) {
    g_phase.store(phase);
    g_interrupts.store(0);
    g_stop.store(false);
    struct sigaction action {};
    action.sa_sigaction = on_recording_signal;
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&action.sa_mask);
    for (int sig : kSignals) sigaddset(&action.sa_mask, sig);
    for (int i = 0; i < 3; ++i) {
        if (::sigaction(kSignals[i], nullptr, &old_[i]) != 0) continue;
        if (!(old_[i].sa_flags & SA_SIGINFO) && old_[i].sa_handler == SIG_IGN) continue;  // nohup: stays ignored
        installed_[i] = ::sigaction(kSignals[i], &action, nullptr) == 0;
    }
}

SignalPhases::~SignalPhases() {
    for (int i = 0; i < 3; ++i)
        if (installed_[i]) ::sigaction(kSignals[i], &old_[i], nullptr);
    g_phase.store(0);
}

void SignalPhases::set(Phase phase) { g_phase.store(phase); }
bool SignalPhases::stop_requested() { return g_stop.load(); }
int SignalPhases::interrupts() { return g_interrupts.load(); }

int convert_spool(const std::string& spool, const std::string& display, const std::string& output,
                  const RecordingOutput& settings, std::FILE* err, bool attach_hint) {
    util::Progress progress;
    convert::ConvertOptions options = settings.options;
    const convert::ConversionReport report = [&] {
        ProgressLine line(progress, err, settings.quiet);  // cleared before any message below
        options.progress = line.enabled() ? &progress : nullptr;  // else nothing is counted
        return convert::convert_eventlog(spool, output, options);
    }();
    ConversionMessages messages{.summary = err,  // record and attach never write to standard output
                                .err = err,
                                .quiet = settings.quiet,
                                .stats = settings.stats,
                                .timings = settings.timings,
                                .strict = settings.strict};
    if (attach_hint)
        messages.empty_hint =
            "a GHC runtime holds events in a buffer per capability until it is full, 2 MB before "
            "GHC 9.2: record a longer window, or run the program with "
            "+RTS --eventlog-flush-interval=1 on GHC 9.2 or later";
    return report_conversion(report, display, output, settings.options, messages);
}

}  // namespace recording

namespace {

int fail(std::FILE* err, const std::string& message) {
    std::fprintf(err, "eventlog2fxprof: error: %s\n", message.c_str());
    return kRecordError;
}

}  // namespace

std::string record_output_path(const std::string& program) {
    return std::string(redaction::file_name(program)) + ".json.gz";
}

int run_record(const RecordCommand& command, std::FILE* out, std::FILE* err) {
    const std::string output =
        command.output.output.empty() ? record_output_path(command.program) : command.output.output;
    if (output == "-") {
        std::fputs("eventlog2fxprof record: the program's standard output is its own: -o - is refused, name a file\n",
                   err);
        return kUsageError;
    }
    // Before anything runs: the program, and whether its RTS takes our options.
    std::string path;
    try {
        path = record::resolve_program(command.program);
        if (!record::holds_ghc_runtime(path))
            throw Error(command.program +
                        " is not a GHC program (no GHC runtime system in it): record runs Haskell "
                        "programs built by GHC; for a script that starts one, record the program itself");
        record::check_user_rts_options(command.args, std::getenv("GHCRTS"));
    } catch (const Error& e) {
        return fail(err, e.what());
    }

    auto command_line = [&](const std::vector<std::string>& flags) {
        std::vector<std::string> argv = {command.program};
        argv.insert(argv.end(), flags.begin(), flags.end());
        argv.insert(argv.end(), command.args.begin(), command.args.end());
        return argv;
    };
    // Asks the RTS: first with the eventlog options alone (what way is it? profiled?), then with
    // everything, which is what runs.
    auto probe = [&](const std::string& fifo) {
        record::RecordRequest base;
        base.sparks = command.request.sparks;
        const std::vector<std::string> base_flags = record::rts_flags(base, false, fifo);
        const record::RtsInfo info = record::probe_rts(path, command.program, base_flags);
        std::vector<std::string> flags = record::rts_flags(command.request, info.profiled, fifo);
        if (flags != base_flags) record::probe_rts(path, command.program, flags);
        return flags;
    };

    if (command.dry_run) {
        try {
            const std::vector<std::string> flags = probe(record::private_dir_pattern() + "/eventlog.fifo");
            std::fprintf(out, "%s\n", record::shell_command_line(command_line(flags)).c_str());
            return kOk;
        } catch (const Error& e) {
            return fail(err, e.what());
        }
    }

    // From here on an interrupted run leaves no temporary file: until the program runs, a
    // signal removes them and ends us.
    std::optional<recording::SignalPhases> signals(std::in_place, recording::SignalPhases::kConverting);
    std::optional<record::PrivateDir> dir(std::in_place);
    const std::string fifo = dir->file("eventlog.fifo");
    const std::string spool = dir->file("eventlog");
    std::vector<std::string> flags;
    try {
        flags = probe(fifo);
    } catch (const Error& e) {
        return fail(err, e.what());
    }
    if (::mkfifo(fifo.c_str(), 0600) != 0)
        throw Error(std::string("cannot make a FIFO: ") + std::strerror(errno), {fifo, std::nullopt, {}});
    const int in = record::open_fifo_for_reading(fifo);
    const int spool_fd = ::open(spool.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (spool_fd < 0) {
        ::close(in);
        throw Error(std::string("cannot make the spool file: ") + std::strerror(errno), {spool, std::nullopt, {}});
    }
    struct Fds {
        int a, b;
        Fds(int x, int y) : a(x), b(y) {}
        Fds(const Fds&) = delete;
        Fds& operator=(const Fds&) = delete;
        ~Fds() {
            ::close(a);
            ::close(b);
        }
    };
    std::optional<Fds> fds(std::in_place, in, spool_fd);

    const std::vector<std::string> argv = command_line(flags);
    if (!command.output.quiet) {
        std::fprintf(err, "eventlog2fxprof: running %s\n", record::shell_command_line(argv).c_str());
        std::fflush(err);
    }
    signals->set(recording::SignalPhases::kRecordingChild);
    record::ChildProcess child(path, argv);
    const record::CaptureResult captured =
        record::capture_stream(in, spool_fd, spool, [&] { return child.try_wait().has_value(); });
    const record::ExitStatus status = child.wait();
    signals->set(recording::SignalPhases::kConverting);
    if (captured.bytes == 0)
        return fail(err, command.program + " " + status.describe() +
                             " without writing any eventlog: its runtime never opened the eventlog (a main that "
                             "exits before the RTS starts? a wrapper that drops +RTS options?); run it by hand "
                             "with `+RTS -l -RTS` to see");
    if (!command.output.quiet)
        std::fprintf(err, "eventlog2fxprof: %s %s; converting %llu bytes of eventlog\n", command.program.c_str(),
                     status.describe().c_str(), static_cast<unsigned long long>(captured.bytes));
    RecordingOutput settings = command.output;
    if (settings.options.input_name.empty()) settings.options.input_name = redaction::file_name(command.program);
    const int converted =
        recording::convert_spool(spool, command.program + " (recorded eventlog)", output, settings, err, false);
    if (converted != kOk) return converted;
    fds.reset();
    dir.reset();      // the spool file is not needed any more
    signals.reset();  // serve handles Ctrl-C itself
    if (settings.open) {
        ServeCommand serve = settings.serve;
        serve.files = {output};
        run_serve(serve, err, err);
    }
    return status.shell_status();
}

}  // namespace el2fx::cli

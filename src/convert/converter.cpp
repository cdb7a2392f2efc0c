#include "convert/converter.hpp"

#include <sys/stat.h>

#include "analysis/threading_analysis.hpp"
#include "convert/contributors.hpp"
#include "convert/thread_catalog.hpp"
#include "eventlog/byte_source.hpp"
#include "eventlog/time_ordered_reader.hpp"
#include "fxprof/output_file.hpp"
#include "util/error.hpp"

namespace el2fx::convert {
namespace {

// Notices which diagnostics an event caused, to show where the eventlog was odd.
class DiagnosticWatcher {
public:
    explicit DiagnosticWatcher(const Diagnostics& diagnostics) : diagnostics_(diagnostics), seen_(diagnostics) {}

    void after(const eventlog::Event& event, std::vector<DiagnosticMoment>& out) {
        if (diagnostics_.total() == seen_.total()) return;
        for (std::size_t i = 0; i < kDiagnosticCount; ++i) {
            auto d = static_cast<Diagnostic>(i);
            if (diagnostics_.count(d) != seen_.count(d) && out.size() < kMaxMoments)
                out.push_back(DiagnosticMoment{event.time, event.cap, d, event.tag});
        }
        seen_ = diagnostics_;
    }

private:
    static constexpr std::size_t kMaxMoments = 10000;  // enough to see a pattern; counts stay exact
    const Diagnostics& diagnostics_;
    Diagnostics seen_;
};

}  // namespace

fxprof::Profile build_profile(const std::string& input, const ConvertOptions& options, ConversionReport& report) {
    eventlog::InputFile file(input);
    eventlog::TimeOrderedReader reader(file, report.diagnostics);
    report.stream_end = reader.stream_end();

    analysis::ThreadingOptions threading_options;
    threading_options.sampling_interval_ns = options.sampling_interval_ns;
    analysis::ThreadingAnalysis threading(report.diagnostics, threading_options);
    RunInfoCollector run(options.include_env);
    ThreadCatalog threads;
    std::vector<DiagnosticMoment> moments;
    DiagnosticWatcher watcher(report.diagnostics);

    std::vector<std::unique_ptr<ProfileContributor>> contributors = make_contributors(options, report.diagnostics);
    while (const eventlog::Event* event = reader.next()) {
        run.handle(*event);
        threads.handle(*event);
        threading.handle(*event);
        for (auto& contributor : contributors) contributor->handle(*event);
        watcher.after(*event, moments);
    }
    analysis::ThreadingResult result = threading.finish();
    report.run = run.info();

    fxprof::Profile profile(report.run.program_name().empty() ? options.input_name : report.run.program_name());
    ProfileContext context(profile, options, report.run, threads, result);
    context.categories = declare_categories(profile);
    report.mapping = map_threading(context, moments, report.diagnostics);
    std::uint64_t end = std::max(result.end_time, report.run.last_time);
    for (auto& contributor : contributors) contributor->contribute(context, end);
    return profile;
}

ConversionReport convert_eventlog(const std::string& input, const std::string& output, const ConvertOptions& options) {
    ConversionReport report;
    fxprof::Profile profile = build_profile(input, options, report);
    report.written = fxprof::write_profile_gz(profile, output);
    struct stat st {};
    if (output != "-" && ::stat(output.c_str(), &st) == 0) report.output_bytes = static_cast<std::uint64_t>(st.st_size);
    return report;
}

std::string default_output_path(const std::string& input) {
    std::string base = input;
    const std::string ext = ".eventlog";
    if (base.size() > ext.size() && base.compare(base.size() - ext.size(), ext.size(), ext) == 0)
        base.resize(base.size() - ext.size());
    return base + ".json.gz";
}

}  // namespace el2fx::convert

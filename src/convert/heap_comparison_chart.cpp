#include "convert/heap_comparison_chart.hpp"

#include <algorithm>

namespace el2fx::convert {
namespace {

using fxprof::v70::GraphColor;

// A family of colours per run (heap size, live heap, then the bands), so that a run reads as
// one: cold colours for the first, warm ones for the second; further runs take them in turn.
constexpr GraphColor kPalettes[2][5] = {
    {GraphColor::blue, GraphColor::teal, GraphColor::ink, GraphColor::green, GraphColor::grey},
    {GraphColor::red, GraphColor::orange, GraphColor::magenta, GraphColor::yellow, GraphColor::purple}};

// The largest level of a step series within [from, to): the level in effect at `from` and
// every sample before `to`; 0 before its first sample.
class StepCursor {
public:
    explicit StepCursor(const std::vector<compare::TimedBytes>& samples) : samples_(samples) {}
    std::uint64_t max_in(std::uint64_t from, std::uint64_t to) {
        while (next_ < samples_.size() && samples_[next_].time <= from) current_ = samples_[next_++].bytes;
        std::uint64_t m = current_;
        for (std::size_t i = next_; i < samples_.size() && samples_[i].time < to; ++i)
            m = std::max(m, samples_[i].bytes);
        return m;
    }

private:
    const std::vector<compare::TimedBytes>& samples_;
    std::size_t next_ = 0;
    std::uint64_t current_ = 0;
};

}  // namespace

HeapComparisonChart make_heap_comparison_chart(const std::vector<compare::RunSeries>& runs,
                                               const std::vector<std::string>& names, std::size_t max_bands,
                                               std::size_t bins) {
    HeapComparisonChart chart;
    // The bands the runs share a scale for: the largest peaks over all runs, by name.
    std::vector<std::pair<std::uint64_t, std::string>> peaks;
    for (const compare::RunSeries& run : runs)
        for (const compare::BandSeries& band : run.bands) {
            auto it = std::find_if(peaks.begin(), peaks.end(), [&](const auto& p) { return p.second == band.name; });
            if (it == peaks.end())
                peaks.emplace_back(band.peak, band.name);
            else
                it->first = std::max(it->first, band.peak);
        }
    std::stable_sort(peaks.begin(), peaks.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    if (peaks.size() > max_bands) peaks.resize(max_bands);

    struct Source {
        std::size_t run;
        const std::vector<compare::TimedBytes>* samples;
    };
    std::vector<Source> sources;
    for (std::size_t r = 0; r < runs.size(); ++r) {
        const std::string who = r < names.size() ? names[r] : "run " + std::to_string(r + 1);
        const std::string k = "r" + std::to_string(r + 1) + "_";
        const GraphColor* palette = kPalettes[r % 2];
        if (!runs[r].heap_size.empty()) {
            chart.series.push_back({k + "size", who + ": heap size", palette[0]});
            sources.push_back({r, &runs[r].heap_size});
        }
        if (!runs[r].heap_live.empty()) {
            chart.series.push_back({k + "live", who + ": live heap", palette[1]});
            sources.push_back({r, &runs[r].heap_live});
        }
        for (std::size_t b = 0; b < peaks.size(); ++b)
            for (const compare::BandSeries& band : runs[r].bands)
                if (band.name == peaks[b].second) {
                    chart.series.push_back(
                        {k + "b" + std::to_string(b + 1), who + ": " + band.name, palette[2 + b % 3]});
                    sources.push_back({r, &band.censuses});
                }
    }
    if (chart.series.empty()) return chart;

    std::uint64_t longest = 1;
    for (const compare::RunSeries& run : runs) longest = std::max(longest, run.end);
    const std::uint64_t step = std::max<std::uint64_t>(1, (longest + bins - 1) / std::max<std::size_t>(bins, 1));
    std::vector<StepCursor> cursors;
    for (const Source& s : sources) cursors.emplace_back(*s.samples);
    for (std::uint64_t from = 0; from < longest; from += step) {
        const std::uint64_t to = std::min(longest, from + step);
        ComparisonRow row{from, to, {}};
        for (std::size_t i = 0; i < sources.size(); ++i) {
            const std::uint64_t level = cursors[i].max_in(from, to);
            row.levels.push_back(from < runs[sources[i].run].end ? level : 0);
        }
        if (!chart.rows.empty() && chart.rows.back().levels == row.levels)
            chart.rows.back().end = to;
        else
            chart.rows.push_back(std::move(row));
    }
    return chart;
}

}  // namespace el2fx::convert

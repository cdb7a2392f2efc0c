#include "analysis/ghc_profiling/heap_chart.hpp"

#include <algorithm>

namespace el2fx::profiling {

HeapChart make_heap_chart(const HeapProfile& heap, std::size_t band_limit, std::uint64_t run_end) {
    HeapChart chart;
    chart.bands = heap.top_bands(band_limit);
    const std::size_t nonzero = heap.top_bands(heap.bands().size()).size();
    chart.other_bands = nonzero - chart.bands.size();
    const std::size_t columns = chart.bands.size() + 1;                        // the chart's bands, then "other"
    std::vector<std::size_t> column(heap.bands().size(), chart.bands.size());  // band -> column
    for (std::size_t i = 0; i < chart.bands.size(); ++i) column[chart.bands[i]] = i;
    chart.peaks.assign(columns, 0);
    chart.sums.assign(columns, 0);

    const std::vector<HeapCensus>& censuses = heap.censuses();
    chart.rows.reserve(censuses.size());
    for (std::size_t c = 0; c < censuses.size(); ++c) {
        const HeapCensus& census = censuses[c];
        HeapChartRow row;
        row.start = census.time;
        if (c + 1 < censuses.size()) {
            row.end = censuses[c + 1].time;
        } else {
            std::uint64_t gap = c > 0 ? census.time - censuses[c - 1].time : 0;
            row.end = std::max(census.time, std::min(census.time + gap, run_end));
        }
        row.levels.assign(columns, 0);
        for (const auto& [band, bytes] : census.bands) row.levels[column[band]] += bytes;
        row.cumulative.resize(columns);
        std::uint64_t sum = 0;
        for (std::size_t i = 0; i < columns; ++i) {
            sum += row.levels[i];
            row.cumulative[i] = sum;
            chart.peaks[i] = std::max(chart.peaks[i], row.levels[i]);
            chart.sums[i] += row.levels[i];
        }
        row.total = sum;
        chart.rows.push_back(std::move(row));
    }
    return chart;
}

}  // namespace el2fx::profiling

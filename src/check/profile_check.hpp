// A structural check of a processed profile (fxprof/format_v70.hpp), for tests of every module
// and for tools: every table column has the table's length, every index is in range (stack
// frames and prefixOffset parents before children; frame func/category/subcategory; func
// name/resource/source; string indexes), every marker's data matches its schema, samples and
// counter samples are in time order, counters have a display, meta has its required fields and
// version 70, and the threads shown at first are the first threads (fxprof/thread_order.hpp:
// safe to share without hidden threads). The profiler itself validates nothing; this catches
// what would crash it or be dropped. A test oracle: the program never links it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace el2fx::check {

// One human-readable line per problem, naming the JSON path ("threads[0].samples.stack[3]: …");
// empty when the profile is fine. Stops collecting after a few hundred problems.
std::vector<std::string> validate_profile(std::string_view json_text);

// Reads the file (gzip-compressed or not) and validates it; an unreadable file is a problem.
std::vector<std::string> validate_profile_file(const std::string& path);

}  // namespace el2fx::check

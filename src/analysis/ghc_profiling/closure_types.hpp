// The names of the runtime's closure types (rts/include/rts/storage/ClosureTypes.h), for the
// closure description of an IPE event, which the runtime writes as the type's number. The
// numbering is the same from GHC 9.0 to 9.14 but for the types appended at its end.
#pragma once

#include <cstdint>
#include <string_view>

namespace el2fx::profiling {

// The name of closure type `number` ("THUNK_2_0"), or empty for a number the table lacks.
std::string_view closure_type_name(std::uint32_t number);

// The same for a closure description as an IPE event gives it (decimal text): its name, or the
// text itself where it is no number the table knows.
std::string_view closure_type_name(std::string_view description);

}  // namespace el2fx::profiling

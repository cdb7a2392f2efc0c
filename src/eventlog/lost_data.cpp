#include "eventlog/lost_data.hpp"

namespace el2fx::eventlog {

std::string_view corruption_text(Corruption kind) {
    switch (kind) {
        case Corruption::record_past_block_end: return "an event's length runs past the end of its block";
        case Corruption::undeclared_tag: return "an event type the header does not declare";
        case Corruption::end_marker_inside_block: return "the end-of-data marker inside a block";
        case Corruption::impossible_block_size: return "a block marker with an impossible size";
    }
    return "corrupt data";
}

}  // namespace el2fx::eventlog

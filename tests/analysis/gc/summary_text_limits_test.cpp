// The +RTS -s text with figures no real run has but a corrupt eventlog can claim.
#include <boost/test/unit_test.hpp>

#include <string>

#include "analysis/gc/rts_summary_text.hpp"

using namespace el2fx::gc;

namespace {

std::string alloc_rate_line(double rate) {
    RtsSummary s;
    s.alloc_rate = Figure<double>::estimate(rate, "a note");
    const std::string text = render_summary_text(s);
    const std::size_t at = text.find("  Alloc rate");
    BOOST_REQUIRE(at != std::string::npos);
    return text.substr(at, text.find(" [", at) - at);  // without the note's number
}

}  // namespace

// Found by summary_fuzzer: 18 EB allocated in 2 ms is ~1e22 bytes per second, beyond what a
// 64-bit integer holds; the cast was undefined and printed 0.
BOOST_AUTO_TEST_CASE(an_alloc_rate_beyond_64_bits_is_printed_in_full) {
    BOOST_TEST(alloc_rate_line(9.92495008258008e21) ==
               "  Alloc rate    9,924,950,082,580,079,706,112 bytes per MUT second");
    BOOST_TEST(alloc_rate_line(18446744073709551616.0) ==
               "  Alloc rate    18,446,744,073,709,551,616 bytes per MUT second");
    BOOST_TEST(alloc_rate_line(1234567.5) == "  Alloc rate    1,234,568 bytes per MUT second");
    BOOST_TEST(alloc_rate_line(0.2) == "  Alloc rate    0 bytes per MUT second");
}

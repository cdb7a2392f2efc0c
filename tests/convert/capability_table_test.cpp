// CapabilityTable: found by number, visited in ascending order (as the std::map it replaces),
// whatever the order of insertion and however sparse the numbers.
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include "convert/capability_table.hpp"

using namespace el2fx::convert;
using el2fx::eventlog::CapNo;

namespace {

std::vector<CapNo> caps_of(const CapabilityTable<std::string>& t) {
    std::vector<CapNo> caps;
    for (const auto& [cap, value] : t) caps.push_back(cap);
    return caps;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(capability_table)

BOOST_AUTO_TEST_CASE(an_empty_table_finds_nothing) {
    const CapabilityTable<std::string> t;
    BOOST_TEST(t.empty());
    BOOST_TEST(!t.find(0));
    BOOST_TEST(!t.find(65535));
}

// Entries added out of order are found by their number and visited in ascending order; the
// numbers between them, and past the largest, find nothing.
BOOST_AUTO_TEST_CASE(finds_by_number_and_visits_in_ascending_order) {
    CapabilityTable<std::string> t;
    BOOST_TEST(t.emplace(3, "three"));
    BOOST_TEST(t.emplace(0, "zero"));
    BOOST_TEST(t.emplace(7, "seven"));
    BOOST_TEST(t.emplace(1, "one"));
    BOOST_TEST(t.size() == 4u);
    BOOST_TEST((caps_of(t) == std::vector<CapNo>{0, 1, 3, 7}));
    BOOST_TEST(*t.find(0) == "zero");
    BOOST_TEST(*t.find(1) == "one");
    BOOST_TEST(*t.find(3) == "three");
    BOOST_TEST(*t.find(7) == "seven");
    for (CapNo absent : std::vector<CapNo>{2, 4, 5, 6, 8, 1000}) BOOST_TEST(!t.find(absent), "cap " << absent);
}

// A second value for a capability is refused and the first kept (as std::map::emplace).
BOOST_AUTO_TEST_CASE(keeps_the_first_value_of_a_capability) {
    CapabilityTable<std::string> t;
    BOOST_TEST(t.emplace(2, "first"));
    BOOST_TEST(!t.emplace(2, "second"));
    BOOST_TEST(t.size() == 1u);
    BOOST_TEST(*t.find(2) == "first");
}

// Entries are found in place: a change through find() is what the next find() and the
// iteration see.
BOOST_AUTO_TEST_CASE(entries_change_in_place) {
    CapabilityTable<std::string> t;
    t.emplace(5, "a");
    t.emplace(2, "b");
    *t.find(5) += "!";
    BOOST_TEST(*t.find(5) == "a!");
    std::vector<std::string> values;
    for (const auto& [cap, value] : t) values.push_back(value);
    BOOST_TEST((values == std::vector<std::string>{"b", "a!"}));
}

// The largest capability number a log can name is a table entry like any other.
BOOST_AUTO_TEST_CASE(takes_the_largest_capability_number) {
    CapabilityTable<std::string> t;
    t.emplace(65535, "last");
    t.emplace(0, "first");
    BOOST_TEST(*t.find(65535) == "last");
    BOOST_TEST(*t.find(0) == "first");
    BOOST_TEST(!t.find(65534));
    BOOST_TEST((caps_of(t) == std::vector<CapNo>{0, 65535}));
}

BOOST_AUTO_TEST_SUITE_END()

#define BOOST_TEST_MODULE events
#include <boost/test/unit_test.hpp>

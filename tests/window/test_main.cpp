#define BOOST_TEST_MODULE window
#include <boost/test/unit_test.hpp>

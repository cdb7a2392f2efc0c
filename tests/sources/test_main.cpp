#define BOOST_TEST_MODULE sources
#include <boost/test/unit_test.hpp>

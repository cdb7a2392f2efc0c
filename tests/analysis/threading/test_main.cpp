#define BOOST_TEST_MODULE analysis
#include <boost/test/unit_test.hpp>

#define BOOST_TEST_MODULE profiling
#include <boost/test/unit_test.hpp>

#define BOOST_TEST_MODULE fxprof
#include <boost/test/unit_test.hpp>

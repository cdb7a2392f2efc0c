#define BOOST_TEST_MODULE util
#include <boost/test/unit_test.hpp>

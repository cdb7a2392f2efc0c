#define BOOST_TEST_MODULE convert
#include <boost/test/unit_test.hpp>

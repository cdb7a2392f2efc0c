#define BOOST_TEST_MODULE compare
#include <boost/test/unit_test.hpp>

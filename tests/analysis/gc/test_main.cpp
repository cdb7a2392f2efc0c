#define BOOST_TEST_MODULE gc
#include <boost/test/unit_test.hpp>

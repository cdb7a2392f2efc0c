#define BOOST_TEST_MODULE mutation
#include <boost/test/unit_test.hpp>

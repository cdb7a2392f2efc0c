#define BOOST_TEST_MODULE share
#include <boost/test/unit_test.hpp>

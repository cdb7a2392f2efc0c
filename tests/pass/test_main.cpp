#define BOOST_TEST_MODULE pass
#include <boost/test/unit_test.hpp>

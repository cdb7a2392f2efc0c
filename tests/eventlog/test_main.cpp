#define BOOST_TEST_MODULE eventlog
#include <boost/test/unit_test.hpp>

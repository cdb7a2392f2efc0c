#define BOOST_TEST_MODULE stack_profiler
#include <boost/test/unit_test.hpp>

#include <boost/test/unit_test.hpp>

#include "analysis/runtime/event_fields_text.hpp"

using namespace el2fx::runtime;
using namespace el2fx::eventlog;

BOOST_AUTO_TEST_SUITE(event_fields_text_suite)

BOOST_AUTO_TEST_CASE(numbers_are_written_by_field_name) {
    CreateMachine m;
    m.machine = 2;
    m.realtime = 1234;
    BOOST_TEST(event_fields_text(Payload{m}) == "machine=2, realtime=1234");
    SendMessage s;
    s.message_tag = 0x50;  // a Word8 is a number, not a character
    BOOST_TEST(event_fields_text(Payload{s}).rfind("message_tag=80, ", 0) == 0u);
}

BOOST_AUTO_TEST_CASE(absent_optional_fields_are_left_out) {
    StopThread st;
    st.thread = 4;
    st.status = 2;
    BOOST_TEST(event_fields_text(Payload{st}) == "thread=4, status=2");
    st.blocker = 9;
    BOOST_TEST(event_fields_text(Payload{st}) == "thread=4, status=2, blocker=9");
}

BOOST_AUTO_TEST_CASE(text_is_quoted_and_sanitized) {
    Version v;
    v.version = Text{"Eden \xff"};
    BOOST_TEST(event_fields_text(Payload{v}) == "version=\"Eden \xEF\xBF\xBD\"");
    BOOST_TEST(event_fields_text(Payload{Shutdown{}}).empty());
}

BOOST_AUTO_TEST_CASE(table_names_by_tag) {
    BOOST_TEST(event_type_name(39) == "SPARK_STEAL");
    BOOST_TEST(event_type_name(0) == "CREATE_THREAD");
    BOOST_TEST(event_type_name(212) == "TICKY_COUNTER_BEGIN_SAMPLE");
    BOOST_TEST(event_type_name(13).empty());
}

BOOST_AUTO_TEST_SUITE_END()

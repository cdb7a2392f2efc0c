// TagDispatch: each event goes to the parts that want its tag, in their order, and to no other.
// (That the contributors' wants() cover what they act on, the fixtures' profiles show.)
#include <boost/test/unit_test.hpp>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "convert/tag_dispatch.hpp"
#include "util/error.hpp"

using namespace el2fx;
using namespace el2fx::convert;

namespace {

// Wants the tags it is given (every tag without a set) and notes which part saw which tag.
class Recorder : public ProfileContributor {
public:
    Recorder(int id, std::vector<long>& seen, std::optional<std::set<std::uint16_t>> tags)
        : id_(id), seen_(seen), tags_(std::move(tags)) {}
    std::string_view name() const override { return "recorder"; }
    void handle(const eventlog::Event& event) override { seen_.push_back(id_ * 100000L + event.tag); }  // part, tag
    bool wants(std::uint16_t tag) const override { return !tags_ || tags_->contains(tag); }
    void contribute(ProfileContext&, std::uint64_t) override {}
    std::span<const std::uint16_t> shown_tags() const override { return {}; }

private:
    int id_;
    std::vector<long>& seen_;
    std::optional<std::set<std::uint16_t>> tags_;
};

eventlog::Event event_with_tag(std::uint16_t tag) {
    eventlog::Event e;
    e.tag = tag;
    return e;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(tag_dispatch)

BOOST_AUTO_TEST_CASE(each_event_goes_to_the_parts_that_want_its_tag_in_their_order) {
    std::vector<long> seen;
    std::vector<std::unique_ptr<ProfileContributor>> parts;
    parts.push_back(std::make_unique<Recorder>(0, seen, std::set<std::uint16_t>{1, 2}));
    parts.push_back(std::make_unique<Recorder>(1, seen, std::nullopt));
    parts.push_back(std::make_unique<Recorder>(2, seen, std::set<std::uint16_t>{}));
    parts.push_back(std::make_unique<Recorder>(3, seen, std::set<std::uint16_t>{2, 65535}));
    const TagDispatch dispatch(parts);
    for (std::uint16_t tag : {std::uint16_t{1}, std::uint16_t{2}, std::uint16_t{7}, std::uint16_t{65535}})
        dispatch.handle(event_with_tag(tag));
    const std::vector<long> expected = {1, 100001,                   // tag 1: parts 0 and 1
                                        2, 100002, 300002,           // 2
                                        100007,                      // 7
                                        165535, 365535};             // 65535
    BOOST_TEST(seen == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(no_parts_no_calls_and_at_most_32_parts) {
    std::vector<long> seen;
    std::vector<std::unique_ptr<ProfileContributor>> parts;
    TagDispatch(parts).handle(event_with_tag(3));
    BOOST_TEST(seen.empty());
    for (int i = 0; i < 32; ++i) parts.push_back(std::make_unique<Recorder>(i, seen, std::nullopt));
    const TagDispatch all(parts);
    all.handle(event_with_tag(3));
    BOOST_TEST(seen.size() == 32u);
    BOOST_TEST(seen.back() == 31 * 100000L + 3);
    parts.push_back(std::make_unique<Recorder>(32, seen, std::nullopt));
    BOOST_CHECK_THROW(TagDispatch{parts}, Error);
}

BOOST_AUTO_TEST_SUITE_END()

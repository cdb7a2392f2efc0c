// The pass plan: what the reader decodes, counts and gives follows from the parts' declared
// interests alone; each event goes to the parts that handle its tag, in their order.
#include <boost/test/unit_test.hpp>

#include <memory>
#include <optional>
#include <set>
#include <vector>

#include "eventlog/counted_records.hpp"
#include "pass/pass_plan.hpp"
#include "util/error.hpp"

using namespace el2fx;
using namespace el2fx::pass;

namespace {

// Handles the tags it is given (every tag without a set) and notes which part saw which tag.
class Recorder : public PassPart {
public:
    Recorder(int id, std::vector<long>& seen, std::optional<std::set<std::uint16_t>> tags)
        : id_(id), seen_(seen), tags_(std::move(tags)) {}
    Interests interests() const override {
        return Interests::where([&](std::uint16_t tag) { return !tags_ || tags_->contains(tag); });
    }
    void handle(const eventlog::Event& event) override { seen_.push_back(id_ * 100000L + event.tag); }  // part, tag

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

std::vector<PassPart*> pointers(const std::vector<std::unique_ptr<Recorder>>& parts) {
    std::vector<PassPart*> out;
    for (const auto& p : parts) out.push_back(p.get());
    return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(pass_plan)

BOOST_AUTO_TEST_CASE(each_event_goes_to_the_parts_that_handle_its_tag_in_their_order) {
    std::vector<long> seen;
    std::vector<std::unique_ptr<Recorder>> parts;
    parts.push_back(std::make_unique<Recorder>(0, seen, std::set<std::uint16_t>{1, 2}));
    parts.push_back(std::make_unique<Recorder>(1, seen, std::nullopt));
    parts.push_back(std::make_unique<Recorder>(2, seen, std::set<std::uint16_t>{}));
    parts.push_back(std::make_unique<Recorder>(3, seen, std::set<std::uint16_t>{2, 65535}));
    const std::vector<PassPart*> p = pointers(parts);
    const PartDispatch dispatch(p);
    for (std::uint16_t tag : {std::uint16_t{1}, std::uint16_t{2}, std::uint16_t{7}, std::uint16_t{65535}})
        dispatch.handle(event_with_tag(tag));
    const std::vector<long> expected = {1,      100001,          // tag 1: parts 0 and 1
                                        2,      100002, 300002,  // 2
                                        100007,                  // 7
                                        165535, 365535};         // 65535
    BOOST_TEST(seen == expected, boost::test_tools::per_element());
    BOOST_TEST(dispatch.interests().size() == 4u);
    BOOST_TEST(dispatch.interests()[3].handles.count() == 2u);
}

BOOST_AUTO_TEST_CASE(no_parts_no_calls_and_at_most_32_parts) {
    std::vector<long> seen;
    std::vector<std::unique_ptr<Recorder>> parts;
    PartDispatch(pointers(parts)).handle(event_with_tag(3));
    BOOST_TEST(seen.empty());
    for (int i = 0; i < 32; ++i) parts.push_back(std::make_unique<Recorder>(i, seen, std::nullopt));
    const std::vector<PassPart*> p = pointers(parts);
    const PartDispatch all(p);
    all.handle(event_with_tag(3));
    BOOST_TEST(seen.size() == 32u);
    BOOST_TEST(seen.back() == 31 * 100000L + 3);
    parts.push_back(std::make_unique<Recorder>(32, seen, std::nullopt));
    BOOST_CHECK_THROW(PartDispatch{pointers(parts)}, Error);
}

BOOST_AUTO_TEST_CASE(a_payload_is_decoded_where_some_part_reads_it) {
    Interests a = Interests::of({1, 2});
    Interests b = Interests::every_event({3});
    b.given({4});
    const std::vector<Interests> asked = {a, b};
    const PassPlan plan = plan_pass(asked);
    BOOST_TEST(plan.decoded.count() == 3u);
    BOOST_TEST((plan.decoded.test(1) && plan.decoded.test(2) && plan.decoded.test(3)));
    BOOST_TEST(!plan.decoded.test(4));  // given, not read
    BOOST_TEST(plan.counted_only.none());
}

BOOST_AUTO_TEST_CASE(what_is_only_counted_is_what_no_part_handles) {
    Interests census = Interests::of({10, 11});
    census.counts.set();
    Interests other = Interests::of({12});
    const std::vector<Interests> asked = {census, other};
    const PassPlan plan = plan_pass(asked);
    BOOST_TEST(!plan.counted_only.test(10));
    BOOST_TEST(!plan.counted_only.test(12));  // another part handles it
    BOOST_TEST(plan.counted_only.test(13));
    // Only the tags a reader counts (eventlog::CountedRecords).
    BOOST_TEST(plan.counted_only.count() == eventlog::CountedRecords::kTags - 3);
    BOOST_TEST(!plan.counted_only.test(eventlog::CountedRecords::kTags));
}

BOOST_AUTO_TEST_CASE(a_naive_pass_decodes_and_gives_everything) {
    Interests census = Interests::of({10});
    census.counts.set();
    const std::vector<Interests> asked = {census};
    for (PassMode mode : {PassMode::naive}) {
        const PassPlan plan = plan_pass(asked, mode);
        BOOST_TEST(plan.decoded.all());
        BOOST_TEST(plan.counted_only.none());
    }
}

BOOST_AUTO_TEST_SUITE_END()

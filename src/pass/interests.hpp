// What one part of a pass over the events (a census, an analysis, a contributor) asks of them,
// declared once beside the code that acts on them. The pass plan (pass_plan.hpp) derives from
// the parts' interests which records are decoded, which are only counted and which part each
// event goes to: no other place lists the tags a part needs, so a part that starts reading an
// event gets it decoded on every log.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "eventlog/event.hpp"
#include "eventlog/skip_before.hpp"

namespace el2fx::pass {

using eventlog::TagSet;

struct Interests {
    // The events given to the part, one by one, in time order.
    TagSet handles;
    // Of those, the ones whose payload it reads: the others may come as tag, time and
    // capability only (an empty UnknownEvent payload).
    TagSet reads;
    // The events it needs only counted (their number by tag and the latest time): a reader
    // may count them in its place instead of giving them, unless some part handles them.
    TagSet counts;

    // Every event given; the payloads of `read` read.
    static Interests every_event(std::initializer_list<std::uint16_t> read = {}) {
        Interests i;
        i.handles.set();
        return i.reading(read);
    }
    // The events whose tag `handles_tag` holds, given and read.
    template <class Predicate>
    static Interests where(Predicate&& handles_tag) {
        Interests i;
        for (std::size_t tag = 0; tag < i.handles.size(); ++tag)
            if (handles_tag(static_cast<std::uint16_t>(tag))) {
                i.handles.set(tag);
                i.reads.set(tag);
            }
        return i;
    }
    // The events of `tags` given and read.
    static Interests of(std::initializer_list<std::uint16_t> tags) { return Interests{}.reading(tags); }
    // Also the events of `tags`, given and read.
    Interests& reading(std::initializer_list<std::uint16_t> tags) {
        for (std::uint16_t tag : tags) {
            handles.set(tag);
            reads.set(tag);
        }
        return *this;
    }
    // Also the events of `tags`, given without their payload.
    Interests& given(std::initializer_list<std::uint16_t> tags) {
        for (std::uint16_t tag : tags) handles.set(tag);
        return *this;
    }
    // Also what `other` asks.
    Interests& operator|=(const Interests& other) {
        handles |= other.handles;
        reads |= other.reads;
        counts |= other.counts;
        return *this;
    }
};

// One part of a pass: it declares its interests and is given the events it handles.
class PassPart {
public:
    virtual ~PassPart() = default;
    // Asked once, before the pass.
    virtual Interests interests() const = 0;
    // Every event interests().handles holds, in time order.
    virtual void handle(const eventlog::Event& event) = 0;
};

// An analysis that declares its interests itself (Analysis::interests(), Analysis::handle()),
// as a part of a pass.
template <class Analysis>
class AnalysisPart final : public PassPart {
public:
    explicit AnalysisPart(Analysis& analysis) : analysis_(analysis) {}
    Interests interests() const override { return Analysis::interests(); }
    void handle(const eventlog::Event& event) override { analysis_.handle(event); }

private:
    Analysis& analysis_;
};

}  // namespace el2fx::pass

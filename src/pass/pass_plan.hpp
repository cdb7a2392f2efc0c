// What a pass asks of the reader, derived from its parts' interests (interests.hpp): which
// records are decoded, which only counted, and to which parts each event goes.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "eventlog/event.hpp"
#include "pass/interests.hpp"

namespace el2fx::pass {

// How much of the plan a pass takes. `planned`: everything the interests allow. `naive`: every
// record decoded and given, nothing counted in the reader's place (the differential tests'
// reference: the profile must be the same).
enum class PassMode { planned, naive };

struct PassPlan {
    // The records whose payload some part reads; the others may come undecoded.
    TagSet decoded;
    // The records some part counts and none handles: the reader may count them instead of
    // giving them (those below eventlog::CountedRecords::kTags: every tag GHC writes).
    TagSet counted_only;
};

// Of a pass whose parts ask `interests` (all of them).
PassPlan plan_pass(std::span<const Interests> interests, PassMode mode = PassMode::planned);

// Hands each event to the parts that handle its tag, in their order: a mask per tag, computed
// once, spares the parts that act on a few tags a virtual call per event.
class PartDispatch {
public:
    static constexpr std::size_t kMaxParts = 32;  // a bit each in a tag's mask

    // At most kMaxParts parts (el2fx::Error beyond); they must outlive the dispatch.
    explicit PartDispatch(std::span<PassPart* const> parts);

    void handle(const eventlog::Event& event) const {
        for (std::uint32_t mask = masks_[event.tag]; mask != 0; mask &= mask - 1)
            parts_[static_cast<std::size_t>(std::countr_zero(mask))]->handle(event);
    }
    // What the parts ask, in their order.
    const std::vector<Interests>& interests() const { return interests_; }

private:
    std::vector<PassPart*> parts_;
    std::vector<Interests> interests_;
    std::vector<std::uint32_t> masks_;  // by tag, every one of the 65,536: bit i for parts_[i]
};

}  // namespace el2fx::pass

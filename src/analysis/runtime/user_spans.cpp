#include "analysis/runtime/user_spans.hpp"

namespace el2fx::runtime {
namespace {

struct Prefix {
    std::string_view text;
    SpanEdge edge;
    SpanConvention convention;
};

constexpr Prefix kPrefixes[] = {
    {"START ", SpanEdge::open, SpanConvention::start_stop},
    {"STOP ", SpanEdge::close, SpanConvention::start_stop},
    {"GHC:started: ", SpanEdge::open, SpanConvention::ghc_timing},
    {"GHC:finished: ", SpanEdge::close, SpanConvention::ghc_timing},
};

}  // namespace

std::optional<SpanMessage> parse_span_message(std::string_view text) {
    for (const Prefix& p : kPrefixes) {
        if (text.size() > p.text.size() && text.substr(0, p.text.size()) == p.text)
            return SpanMessage{p.edge, p.convention, text.substr(p.text.size())};
    }
    return std::nullopt;
}

std::string_view convention_text(SpanConvention convention) {
    return convention == SpanConvention::start_stop ? "START/STOP" : "GHC:started/GHC:finished";
}

std::vector<UserSpanPairer::Open>& UserSpanPairer::stack(SpanOwner owner) {
    auto [it, inserted] = owner_index_.try_emplace(owner, open_.size());
    if (inserted) open_.emplace_back(owner, std::vector<Open>{});
    return open_[it->second].second;
}

void UserSpanPairer::open(SpanOwner owner, std::uint64_t time, SpanConvention convention, std::string_view name) {
    std::vector<Open>& s = stack(owner);
    s.push_back(Open{std::string(name), convention, time, static_cast<std::uint32_t>(s.size())});
}

void UserSpanPairer::close(SpanOwner owner, std::uint64_t time, SpanConvention convention, std::string_view name) {
    std::vector<Open>& s = stack(owner);
    for (auto it = s.rbegin(); it != s.rend(); ++it) {
        if (it->convention != convention || it->name != name) continue;
        spans_.push_back(PairedSpan{owner, std::move(it->name), convention, it->start, time, it->depth});
        s.erase(std::next(it).base());
        return;
    }
    unmatched_.push_back(UnmatchedEdge{owner, std::string(name), convention, SpanEdge::close, time,
                                       static_cast<std::uint32_t>(s.size())});
}

void UserSpanPairer::edge(SpanOwner owner, std::uint64_t time, const SpanMessage& message) {
    if (message.edge == SpanEdge::open) {
        open(owner, time, message.convention, message.name);
    } else {
        close(owner, time, message.convention, message.name);
    }
}

void UserSpanPairer::finish() {
    for (auto& [owner, s] : open_)
        for (Open& o : s)
            unmatched_.push_back(
                UnmatchedEdge{owner, std::move(o.name), o.convention, SpanEdge::open, o.start, o.depth});
    open_.clear();
    owner_index_.clear();
}

std::size_t UserSpanPairer::open_count() const {
    std::size_t n = 0;
    for (const auto& [owner, s] : open_) n += s.size();
    return n;
}

}  // namespace el2fx::runtime

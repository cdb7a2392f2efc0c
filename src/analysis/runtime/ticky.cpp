#include "analysis/runtime/ticky.hpp"

#include <algorithm>
#include <cstdio>

#include "util/utf8.hpp"

namespace el2fx::runtime {

std::string TickyCounter::display_name() const {
    if (!name.empty()) return name;
    char buf[48];
    std::snprintf(buf, sizeof buf, "ticky counter 0x%llx", static_cast<unsigned long long>(id));
    return buf;
}

TickyCounter& TickyAggregator::counter(std::uint64_t id) {
    auto [it, inserted] = index_.try_emplace(id, counters_.size());
    if (inserted) {
        counters_.push_back(TickyCounter{});
        counters_.back().id = id;
    }
    return counters_[it->second];
}

void TickyAggregator::define(const eventlog::TickyCounterDef& def) {
    TickyCounter& c = counter(def.counter);
    c.defined = true;
    c.name.clear();
    utf8::append_sanitized(c.name, def.counter_name.bytes);
    c.arity = def.arity;
    c.arg_kinds.clear();
    utf8::append_sanitized(c.arg_kinds,
                           def.json_desc && !def.json_desc->bytes.empty() ? def.json_desc->bytes : def.arg_kinds.bytes);
    c.info_table = def.info_table;
}

void TickyAggregator::sample(std::uint64_t time, const eventlog::TickyCounterSample& s) {
    TickyCounter& c = counter(s.counter);
    c.samples.push_back(TickySample{time, s.entries, s.allocs, s.allocd});
    c.entries += s.entries;
    c.allocs += s.allocs;
    c.allocd += s.allocd;
    ++samples_;
    if (!rounds_.empty()) {
        TickyRound& r = rounds_.back();
        ++r.samples;
        r.entries += s.entries;
        r.allocs += s.allocs;
    }
}

void TickyAggregator::begin_round(std::uint64_t time) { rounds_.push_back(TickyRound{time, 0, 0, 0}); }

std::vector<const TickyCounter*> TickyAggregator::top_by_entries(std::size_t n) const {
    std::vector<const TickyCounter*> out;
    for (const TickyCounter& c : counters_)
        if (c.entries > 0) out.push_back(&c);
    std::sort(out.begin(), out.end(), [](const TickyCounter* a, const TickyCounter* b) {
        if (a->entries != b->entries) return a->entries > b->entries;
        if (a->allocs != b->allocs) return a->allocs > b->allocs;
        return a->id < b->id;
    });
    if (out.size() > n) out.resize(n);
    return out;
}

}  // namespace el2fx::runtime

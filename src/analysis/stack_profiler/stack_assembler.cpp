#include "analysis/stack_profiler/stack_assembler.hpp"

#include <algorithm>

namespace el2fx::stack_profiler {

void StackAssembler::prove(Layout layout) {
    if (layout == Layout::unknown) return;
    if (layout_ == Layout::unknown) {
        layout_ = layout;
    } else if (layout != layout_) {
        ++counts_.layout_conflicts;
    }
}

StackAssembler::Pending& StackAssembler::pending_for(std::uint32_t cap, std::uint32_t thread) {
    Pending* free = nullptr;
    for (Pending& p : pending_) {
        if (p.active && p.cap == cap && p.thread == thread) return p;
        if (!p.active && !free) free = &p;
    }
    if (!free) free = &pending_.emplace_back();
    free->cap = cap;
    free->thread = thread;
    free->dropped = false;
    free->entries.clear();  // keeps its capacity: no allocation per sample once warm
    return *free;
}

const AssembledSample* StackAssembler::message(std::uint64_t time, std::string_view payload) {
    const Message m = decode_message(payload, layout_);
    switch (m.kind) {
        case MessageKind::not_profiler: ++counts_.other_binary; return nullptr;
        case MessageKind::malformed: ++counts_.malformed; return nullptr;
        case MessageKind::unknown_format: ++counts_.unknown_format; return nullptr;
        case MessageKind::string_def: {
            ++counts_.messages;
            ++counts_.string_defs;
            auto [it, added] = strings_.try_emplace(m.id, m.text);
            if (!added && it->second != m.text) {
                ++counts_.redefined_differently;
                it->second.assign(m.text);
            }
            return nullptr;
        }
        case MessageKind::location_def: {
            ++counts_.messages;
            ++counts_.location_defs;
            prove(m.layout);
            const SourceLocationDef def{m.line, m.column, m.file, m.function, m.layout == Layout::v0_1};
            auto [it, added] = locations_.try_emplace(m.id, def);
            if (!added && !(it->second == def)) {
                ++counts_.redefined_differently;
                it->second = def;
            }
            return nullptr;
        }
        case MessageKind::call_stack: break;
    }
    ++counts_.messages;
    prove(m.layout);
    // Read as the message proved, else as the log did, else as the current release writes.
    Layout read_as = m.layout != Layout::unknown ? m.layout : layout_ != Layout::unknown ? layout_ : Layout::v0_3;
    if (std::any_of(pending_.begin(), pending_.end(), [&](const Pending& p) {
            return p.active && (p.cap != m.cap || p.thread != m.thread);
        }))
        ++counts_.interleaved;
    Pending& p = pending_for(m.cap, m.thread);
    p.active = true;
    if (!p.dropped) {
        if (p.entries.size() + m.count > kMaxStackEntries) {
            p.dropped = true;
            p.entries.clear();
        } else {
            EntryReader reader(m.entries, read_as);
            Entry e;
            while (reader.next(e)) p.entries.push_back(e);
        }
    }
    if (!m.final) {
        ++counts_.chunks;
        return nullptr;
    }
    p.active = false;
    if (p.dropped) {
        ++counts_.oversized;
        return nullptr;
    }
    ++counts_.samples;
    counts_.entries += p.entries.size();
    counts_.max_depth = std::max<std::uint64_t>(counts_.max_depth, p.entries.size());
    if (p.entries.empty()) ++counts_.empty_samples;
    out_ = AssembledSample{.time = time, .cap = m.cap, .thread = m.thread, .entries = p.entries};
    return &out_;
}

void StackAssembler::finish() {
    for (Pending& p : pending_) {
        if (!p.active) continue;
        ++counts_.truncated;
        counts_.truncated_entries += p.entries.size();
        p.active = false;
        p.entries.clear();
    }
}

const std::string* StackAssembler::string(std::uint64_t id) const {
    auto it = strings_.find(id);
    return it == strings_.end() ? nullptr : &it->second;
}

const SourceLocationDef* StackAssembler::location(std::uint64_t id) const {
    auto it = locations_.find(id);
    return it == locations_.end() ? nullptr : &it->second;
}

}  // namespace el2fx::stack_profiler

#include "fxprof/marker_table.hpp"

#include "util/error.hpp"

namespace el2fx::fxprof {

namespace {

// A record: name, category, phase byte, start (delta from the previous marker's start),
// end - start, schema + 1 (0: none), then with a schema the value count and per value a type
// byte and its payload (a timestamp as a delta from the marker's start).
std::int64_t wrapping_sub(std::int64_t a, std::int64_t b) {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) - static_cast<std::uint64_t>(b));
}
std::int64_t wrapping_add(std::int64_t a, std::int64_t b) {
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}

}  // namespace

MarkerHandle MarkerTable::add(MarkerTiming timing, StringHandle name, CategoryHandle category, std::uint32_t schema,
                              const FieldValue* values, std::size_t value_count) {
    if (!store_) throw Error("profile table used without its profile");
    if (size_ >= UINT32_MAX) throw Error("too many markers on one thread");
    const auto index = static_cast<std::uint32_t>(size_);
    const std::size_t max = 6 * spill::kMaxVarint + 1 + value_count * (1 + spill::kMaxVarint);
    std::uint8_t* const begin = stream_.reserve(*store_, max);
    std::uint8_t* p = begin;
    const std::int64_t start = timing.start().nanos();
    spill::put_uvarint(p, name.index());
    spill::put_uvarint(p, static_cast<std::uint16_t>(category.index()));
    *p++ = static_cast<std::uint8_t>(timing.phase());
    spill::put_svarint(p, wrapping_sub(start, previous_start_));
    spill::put_svarint(p, wrapping_sub(timing.end().nanos(), start));
    spill::put_uvarint(p, static_cast<std::uint32_t>(schema + 1));
    if (schema != kNoSchema) {
        spill::put_uvarint(p, value_count);
        for (std::size_t i = 0; i < value_count; ++i) {
            const FieldValue& v = values[i];
            *p++ = static_cast<std::uint8_t>(v.type());
            switch (v.type()) {
                case FieldValue::Type::string: spill::put_uvarint(p, v.string().index()); break;
                case FieldValue::Type::integer:
                case FieldValue::Type::duration: spill::put_svarint(p, v.integer()); break;
                case FieldValue::Type::real: spill::put_double(p, v.real()); break;
                case FieldValue::Type::timestamp: spill::put_svarint(p, wrapping_sub(v.integer(), start)); break;
                case FieldValue::Type::absent: break;
            }
        }
    }
    stream_.commit(static_cast<std::size_t>(p - begin));
    previous_start_ = start;
    ++size_;
    return MarkerHandle(index);
}

void MarkerTable::decode(const std::uint8_t*& p, MarkerRow& row, std::int64_t& previous_start,
                         std::vector<FieldValue>* values) {
    row.name = static_cast<std::uint32_t>(spill::get_uvarint(p));
    row.category = static_cast<std::uint16_t>(spill::get_uvarint(p));
    row.phase = static_cast<MarkerPhase>(*p++);
    row.start = wrapping_add(previous_start, spill::get_svarint(p));
    previous_start = row.start;
    row.end = wrapping_add(row.start, spill::get_svarint(p));
    row.schema = static_cast<std::uint32_t>(spill::get_uvarint(p)) - 1;
    row.values = {};
    if (row.schema == kNoSchema) return;
    const std::uint64_t n = spill::get_uvarint(p);
    if (!values) {  // skip them
        for (std::uint64_t i = 0; i < n; ++i) {
            const auto type = static_cast<FieldValue::Type>(*p++);
            if (type == FieldValue::Type::real)
                p += sizeof(double);
            else if (type != FieldValue::Type::absent)
                while (*p++ & 0x80) {}
        }
        return;
    }
    values->clear();
    for (std::uint64_t i = 0; i < n; ++i) {
        const auto type = static_cast<FieldValue::Type>(*p++);
        switch (type) {
            case FieldValue::Type::string:
                values->emplace_back(StringHandle(static_cast<std::uint32_t>(spill::get_uvarint(p))));
                break;
            case FieldValue::Type::integer: values->emplace_back(spill::get_svarint(p)); break;
            case FieldValue::Type::duration: values->emplace_back(Duration::from_nanos(spill::get_svarint(p))); break;
            case FieldValue::Type::real: values->emplace_back(spill::get_double(p)); break;
            case FieldValue::Type::timestamp:
                values->emplace_back(Timestamp::from_nanos(wrapping_add(row.start, spill::get_svarint(p))));
                break;
            case FieldValue::Type::absent: values->emplace_back(); break;
            default: throw Error("profile marker table: corrupt record");
        }
    }
    row.values = std::span<const FieldValue>(values->data(), values->size());
}

}  // namespace el2fx::fxprof

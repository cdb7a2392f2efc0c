#include "window/owned_event.hpp"

#include <optional>
#include <tuple>
#include <type_traits>
#include <variant>
#include <vector>

namespace el2fx::window {
namespace {

using namespace eventlog;

template <typename T>
struct IsU32Array : std::false_type {};
template <typename C>
struct IsU32Array<U32Array<C>> : std::true_type {};

// Calls f on each field of the payload that is a view of the decoder's bytes.
template <typename F>
void for_each_view(Payload& payload, F&& f) {
    std::visit(
        [&](auto& p) {
            using P = std::decay_t<decltype(p)>;
            if constexpr (!requires { P::fields(); }) {
                if constexpr (requires { p.payload.bytes; }) f(p.payload.bytes);  // UnknownEvent
            } else {
            std::apply(
                [&](auto... fields) {
                    auto one = [&](auto field) {
                        auto& value = p.*(field.member);
                        using V = std::decay_t<decltype(value)>;
                        if constexpr (std::is_same_v<V, Text> || std::is_same_v<V, CString> ||
                                      std::is_same_v<V, Bytes> || std::is_same_v<V, StringList> ||
                                      IsU32Array<V>::value) {
                            f(value.bytes);
                        } else if constexpr (std::is_same_v<V, std::optional<CString>>) {
                            if (value) f(value->bytes);
                        }
                    };
                    (void)one;  // payloads without fields
                    (one(fields), ...);
                },
                P::fields());
            }
        },
        payload);
}

}  // namespace

OwnedEvent::OwnedEvent(const Event& event) : event_(event), bytes_(std::make_unique<std::string>()) {
    std::vector<std::size_t> at;
    for_each_view(event_.payload, [&](std::string_view& view) {
        at.push_back(bytes_->size());
        bytes_->append(view);
    });
    std::size_t i = 0;
    for_each_view(event_.payload, [&](std::string_view& view) {
        view = std::string_view(bytes_->data() + at[i], view.size());
        ++i;
    });
}

}  // namespace el2fx::window

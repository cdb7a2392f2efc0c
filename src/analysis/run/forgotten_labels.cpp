#include "analysis/run/forgotten_labels.hpp"

#include "eventlog/event_types.hpp"
#include "util/utf8.hpp"

namespace el2fx::run {

void ForgottenLabels::follow(const eventlog::Event& event) {
    using namespace eventlog;
    switch (event.tag) {
        case ThreadLabel::tag:
            if (const auto* p = event.as<ThreadLabel>(); p && forgotten(p->thread)) {
                sanitized_.clear();
                utf8::append_sanitized(sanitized_, p->label.bytes);
                labels_[p->thread].assign(sanitized_);
                labelled_.insert(p->thread);
            }
            break;
        case StopThread::tag:
            if (const auto* p = event.as<StopThread>();
                p && p->status == static_cast<std::uint16_t>(StopStatus::ThreadFinished) &&
                labelled_.contains(p->thread)) {
                finished_.emplace_back(event.time, p->thread);
                if (finished_.size() == 1) expires_at_ = event.time + grace_ns_;
            }
            break;
        default: break;
    }
    if (event.time > expires_at_) expire(event.time);
}

void ForgottenLabels::expire(std::uint64_t now) {
    while (!finished_.empty() && finished_.front().first + grace_ns_ < now) {
        labels_.erase(finished_.front().second);
        labelled_.erase(finished_.front().second);
        finished_.pop_front();
    }
    expires_at_ = finished_.empty() ? ~std::uint64_t{0} : finished_.front().first + grace_ns_;
}

std::string_view ForgottenLabels::label(eventlog::ThreadId id) const {
    if (!labelled_.contains(id)) return {};
    const std::string* label = labels_.find(id);
    return label ? std::string_view(*label) : std::string_view();
}

}  // namespace el2fx::run

#include "record/private_dir.hpp"

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

#include "util/error.hpp"

namespace el2fx::record {
namespace {

constexpr int kSlots = 4;
constexpr int kFiles = 4;
constexpr std::size_t kPathMax = 512;

// A fixed table, so that a signal handler reads no memory that may be freed meanwhile. A slot
// is claimed with `used` (0 free, 1 being filled, 2 ready); the handler only reads ready slots.
struct Slot {
    std::atomic<int> used{0};
    std::atomic<int> files{0};
    char dir[kPathMax] = {};
    char file[kFiles][kPathMax] = {};
};
Slot g_slots[kSlots];

std::string temp_root() {
    const char* tmp = std::getenv("TMPDIR");
    std::string root = tmp && *tmp ? tmp : "/tmp";
    while (root.size() > 1 && root.back() == '/') root.pop_back();
    return root;
}

}  // namespace

std::string private_dir_pattern(const std::string& prefix) { return temp_root() + "/" + prefix + ".XXXXXX"; }

PrivateDir::PrivateDir(const std::string& prefix) {
    std::string pattern = private_dir_pattern(prefix);
    if (::mkdtemp(pattern.data()) == nullptr)  // mode 0700
        throw Error("cannot make a temporary directory " + pattern + ": " + std::strerror(errno) +
                    " (set TMPDIR to a writable directory)");
    path_ = pattern;
    if (path_.size() >= kPathMax) return;
    for (int i = 0; i < kSlots; ++i) {
        int expected = 0;
        if (!g_slots[i].used.compare_exchange_strong(expected, 1)) continue;
        g_slots[i].files.store(0);
        std::memcpy(g_slots[i].dir, path_.c_str(), path_.size() + 1);
        g_slots[i].used.store(2);
        slot_ = i;
        break;
    }
}

std::string PrivateDir::file(const std::string& name) {
    if (files_ >= kFiles) throw Error("internal: too many files in the private directory");
    std::string p = path_ + "/" + name;
    if (slot_ >= 0 && p.size() < kPathMax) {
        std::memcpy(g_slots[slot_].file[files_], p.c_str(), p.size() + 1);
        g_slots[slot_].files.store(files_ + 1);
    }
    ++files_;
    names_.push_back(p);
    return p;
}

PrivateDir::~PrivateDir() {
    if (slot_ >= 0) g_slots[slot_].used.store(1);  // the handler leaves it alone from now on
    for (const std::string& p : names_) ::unlink(p.c_str());
    ::rmdir(path_.c_str());
    if (slot_ >= 0) g_slots[slot_].used.store(0);
}

void remove_private_dirs() noexcept {
    for (Slot& slot : g_slots) {
        if (slot.used.load() != 2) continue;
        const int files = slot.files.load();
        for (int f = 0; f < files; ++f) ::unlink(slot.file[f]);
        ::rmdir(slot.dir);
    }
}

}  // namespace el2fx::record

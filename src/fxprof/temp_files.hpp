// Temporary files that an interrupted program should remove. Library code registers the
// files it creates and unregisters them once renamed or removed; it never installs a signal
// handler. A program that wants them gone when it is killed by a signal installs its own
// handler and calls remove_registered_temp_files() from it (the CLI: cli/interrupt_cleanup).
// A fixed table of paths copied in, so the handler reads no memory that may be freed meanwhile.
#pragma once

#include <string_view>

namespace el2fx::fxprof {

// The slot of the registered path, or -1 when it cannot be registered (table full, path too
// long): the file then works as usual but is not removed on a signal.
int register_temp_file(std::string_view path) noexcept;
void unregister_temp_file(int slot) noexcept;

// Unlinks every registered file. Async-signal-safe (atomics and unlink(2) only).
void remove_registered_temp_files() noexcept;

}  // namespace el2fx::fxprof

// Temporary files and directories that an interrupted program should remove. Library code
// registers what it creates (the profile being written, a recording's private directory and
// the FIFO and spool file in it) and unregisters it once renamed or removed; it never installs a
// signal handler. A program that wants them gone when it is killed by a signal installs its own
// handler and calls remove_registered_temp_files() from it (cli/interrupt_cleanup, record).
// A fixed table of paths copied in, so the handler reads no memory that may be freed meanwhile.
#pragma once

#include <string_view>

namespace el2fx::util {

// The slot of the registered path, or -1 when it cannot be registered (table full, path too
// long): the path then works as usual but is not removed on a signal.
int register_temp_file(std::string_view path) noexcept;
// A directory: removed (rmdir) after every registered file, so register what it holds too.
int register_temp_dir(std::string_view path) noexcept;
void unregister_temp_file(int slot) noexcept;

// Unlinks every registered file, then removes every registered directory.
// Async-signal-safe (atomics, unlink(2) and rmdir(2) only).
void remove_registered_temp_files() noexcept;

}  // namespace el2fx::util

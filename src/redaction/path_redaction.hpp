// --redact-paths: absolute paths in a text reduced to their last component, so that a
// profile says "Main.hs", never "/home/ann/src/Main.hs". Every text taken from the eventlog
// passes here (see event_rewriter.hpp); what it misses is published.
#pragma once

#include <string>
#include <string_view>

namespace el2fx::redaction {

// Every path in `text` that names a place on a machine, reduced to its last component
// ("/home/ann/src/Main.hs:12:3-20" → "Main.hs:12:3-20"). Such a path is
// - `/` or `\` followed by at least two components (`/usr` alone and `a / b` are no paths),
//   `~/…`, `~user/…`, `C:\…`, `C:/…` or `\\server\…` with at least one, starting the text or
//   after any character but a letter, digit, `_`, `.`, `-` or slash (`x|/home/ann/f`,
//   `u@/home/…`, `=/…`, `(/…`); a path ends at white space, a quote or backquote or one of
//   `: , ; ) ] } >`; a path glued on after that end (`/a/b:c/d`) goes too;
// - an option's value glued to it: `-ol/home/ann/out.eventlog` → `-olout.eventlog`
//   (RTS flags `-ol`, `-po`, `-S`, `-hi`…; any `-x…` or `--xy…` starting a word);
// - a relative path that climbs (`../../home/ann/f`, `src/../../x/y`);
// - any of these percent-encoded (`%2Fhome%2Fann%2Ff`, also twice): a text holding escapes
//   is decoded (except %00), and if the decoded text holds a path, it is what is reduced.
// URLs (`scheme://host/…`) stay, except `file:` ones. Relative paths (`src/Main.hs`) and
// text with slashes (`a/b`, `1/2`, `TCP/IP`) stay. Linear in the length of the text.
std::string reduce_paths(std::string_view text);

// "/usr/bin/prog" → "prog" (either kind of slash).
std::string_view file_name(std::string_view path);

}  // namespace el2fx::redaction

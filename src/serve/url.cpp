#include "serve/url.hpp"

#include <cerrno>
#include <fcntl.h>
#include <sys/random.h>
#include <unistd.h>

#include "util/error.hpp"

namespace el2fx::serve {
namespace {

bool is_alnum(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

bool fill_from_getrandom(unsigned char* out, std::size_t n) {
    std::size_t got = 0;
    while (got < n) {
        ssize_t r = ::getrandom(out + got, n - got, 0);
        if (r < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        got += static_cast<std::size_t>(r);
    }
    return true;
}

bool fill_from_urandom(unsigned char* out, std::size_t n) {
    int fd = ::open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    std::size_t got = 0;
    while (got < n) {
        ssize_t r = ::read(fd, out + got, n - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += static_cast<std::size_t>(r);
    }
    ::close(fd);
    return got == n;
}

}  // namespace

std::string percent_encode(std::string_view text) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out;
    out.reserve(text.size() * 3);
    for (char c : text) {
        if (is_alnum(c) || std::string_view("-_.!~*'()").find(c) != std::string_view::npos) {
            out += c;
        } else {
            auto b = static_cast<unsigned char>(c);
            out += '%';
            out += kHex[b >> 4];
            out += kHex[b & 15];
        }
    }
    return out;
}

std::string random_token(std::size_t bytes) {
    std::vector<unsigned char> raw(bytes);
    if (!fill_from_getrandom(raw.data(), bytes) && !fill_from_urandom(raw.data(), bytes))
        throw Error("no random numbers from the system (getrandom, /dev/urandom): cannot make a secret URL");
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    out.reserve(bytes * 2);
    for (unsigned char b : raw) {
        out += kHex[b >> 4];
        out += kHex[b & 15];
    }
    return out;
}

std::string from_url_link(std::string_view profile_url, std::string_view profiler_origin,
                          std::string_view symbol_server) {
    std::string link = std::string(profiler_origin) + "/from-url/" + percent_encode(profile_url) + "/";
    if (!symbol_server.empty()) link += "?symbolServer=" + percent_encode(symbol_server);
    return link;
}

std::string compare_link(const std::vector<std::string>& profile_urls, std::size_t thread,
                         std::string_view profiler_origin) {
    std::string out = std::string(profiler_origin) + "/compare/";
    char sep = '?';
    for (const std::string& url : profile_urls) {
        std::string view = from_url_link(url, profiler_origin) + "?thread=" + std::to_string(thread);
        out += sep;
        out += "profiles[]=" + percent_encode(view);
        sep = '&';
    }
    return out;
}

}  // namespace el2fx::serve

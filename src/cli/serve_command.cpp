#include "cli/serve_command.hpp"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/exit_codes.hpp"
#include "serve/url.hpp"
#include "util/error.hpp"

extern char** environ;

namespace el2fx::cli {
namespace {

// SIGINT and SIGTERM write a byte here; the server stops when it can read it.
volatile std::sig_atomic_t g_stop_fd = -1;

extern "C" void on_stop_signal(int) {
    int saved = errno;
    if (g_stop_fd >= 0) {
        char byte = 1;
        [[maybe_unused]] ssize_t n = ::write(g_stop_fd, &byte, 1);
    }
    errno = saved;
}

// The self-pipe and the signal dispositions, restored when serving ends.
class StopSignals {
public:
    StopSignals() {
        if (::pipe(fds_) != 0) throw Error("cannot make a pipe for signals");
        for (int fd : fds_) ::fcntl(fd, F_SETFD, FD_CLOEXEC);
        ::fcntl(fds_[1], F_SETFL, O_NONBLOCK);
        g_stop_fd = fds_[1];
        struct sigaction stop {};
        stop.sa_handler = on_stop_signal;
        sigemptyset(&stop.sa_mask);
        ::sigaction(SIGINT, &stop, &old_int_);
        ::sigaction(SIGTERM, &stop, &old_term_);
        struct sigaction ignore {};
        ignore.sa_handler = SIG_IGN;
        sigemptyset(&ignore.sa_mask);
        ::sigaction(SIGPIPE, &ignore, &old_pipe_);  // a client that goes away is not our death
    }
    ~StopSignals() {
        ::sigaction(SIGINT, &old_int_, nullptr);
        ::sigaction(SIGTERM, &old_term_, nullptr);
        ::sigaction(SIGPIPE, &old_pipe_, nullptr);
        g_stop_fd = -1;
        ::close(fds_[0]);
        ::close(fds_[1]);
    }
    StopSignals(const StopSignals&) = delete;
    StopSignals& operator=(const StopSignals&) = delete;
    int read_fd() const { return fds_[0]; }

private:
    int fds_[2] = {-1, -1};
    struct sigaction old_int_ {
    }, old_term_{}, old_pipe_{};
};

bool has_desktop() {
#ifdef __APPLE__
    return true;
#else
    const char* x = std::getenv("DISPLAY");
    const char* wayland = std::getenv("WAYLAND_DISPLAY");
    return (x && *x) || (wayland && *wayland);
#endif
}

// Starts the desktop's URL opener without waiting for it (it may keep running as the
// browser); returns its pid, or -1.
pid_t open_in_browser(const std::string& url) {
#ifdef __APPLE__
    const char* opener = "open";
#else
    const char* opener = "xdg-open";
#endif
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    std::string program = opener;
    std::string argument = url;
    char* argv[] = {program.data(), argument.data(), nullptr};
    pid_t pid = -1;
    int rc = ::posix_spawnp(&pid, opener, &actions, nullptr, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    return rc == 0 ? pid : -1;
}

std::string host_name() {
    char buf[256] = {};
    if (::gethostname(buf, sizeof buf - 1) != 0 || !buf[0]) return "HOST";
    return buf;
}

std::string base_name(const std::string& path) {
    std::size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

void add_serve_options(cxxopts::Options& options) {
    options.add_options("serve")("port", "serve on this port (default: the first free one from 3000; 0: any free one)",
                                 cxxopts::value<unsigned>())(
        "address", "listen on this IP address (default 127.0.0.1: this machine only)", cxxopts::value<std::string>())(
        "no-browser", "do not open the link in a desktop browser, only print it")(
        "profiler-url", "the Firefox Profiler to link to (default https://profiler.firefox.com)",
        cxxopts::value<std::string>())(
        "sources",
        "the program's source directory (repeatable): convert embeds the Haskell source files the "
        "profile's cost centres name; serve gives them to the profiler's source view",
        cxxopts::value<std::vector<std::string>>());
}

void read_serve_options(const cxxopts::ParseResult& args, ServeCommand& command) {
    if (args.count("port")) {
        unsigned port = args["port"].as<unsigned>();
        if (port > 65535) throw Error("--port must be at most 65535");
        command.server.port = static_cast<std::uint16_t>(port);
    }
    if (args.count("address")) command.server.address = args["address"].as<std::string>();
    if (args.count("no-browser")) command.browser = false;
    if (args.count("sources"))
        command.server.sources = sources::SourceRoots(args["sources"].as<std::vector<std::string>>());
    if (args.count("profiler-url")) {
        std::string origin = args["profiler-url"].as<std::string>();
        while (!origin.empty() && origin.back() == '/') origin.pop_back();
        if (origin.rfind("https://", 0) != 0 && origin.rfind("http://", 0) != 0)
            throw Error("--profiler-url must start with https:// or http://");
        command.profiler_origin = origin;
    }
}

int run_serve(const ServeCommand& command, std::FILE* out, std::FILE* err) {
    if (command.files.empty()) throw Error("serve: no profile file given");
    for (const std::string& file : command.files) {
        struct stat st {};
        if (::stat(file.c_str(), &st) != 0) throw Error(file + ": cannot serve it: no such file");
        if (!S_ISREG(st.st_mode)) throw Error(file + ": cannot serve it: not a regular file");
    }
    // 128 random bits in the path: the link is the only key to the profile.
    std::string token = serve::random_token(16);
    StopSignals signals;
    serve::Server server(command.server, serve::files_under_token(command.files, token));

    std::vector<std::string> urls;
    for (const serve::ServedFile& f : server.files()) urls.push_back(server.origin() + f.url_path);
    // With --sources the profiler is told where to ask for source files (samply's symbolServer).
    const std::string symbol_server = command.server.sources.empty() ? std::string() : server.origin() + "/" + token;
    for (std::size_t i = 0; i < urls.size(); ++i) {
        std::fprintf(out, "Serving %s at %s\n", base_name(command.files[i]).c_str(), urls[i].c_str());
        std::fprintf(out, "Open it in the Firefox Profiler: %s\n",
                     serve::from_url_link(urls[i], command.profiler_origin, symbol_server).c_str());
    }
    if (!symbol_server.empty())
        std::fprintf(out, "Source files for the profiler's source view from: %s\n",
                     [&] {
                         std::string dirs;
                         for (const std::string& d : command.server.sources.roots())
                             dirs += (dirs.empty() ? "" : ", ") + d;
                         return dirs;
                     }()
                         .c_str());
    std::string link = serve::from_url_link(urls.front(), command.profiler_origin, symbol_server);
    if (urls.size() == 2) {
        link = serve::compare_link(urls, 1, command.profiler_origin);
        std::fprintf(out, "Compare them (track 1, the first capability, of each): %s\n", link.c_str());
    }
    if (!server.loopback_only())
        std::fprintf(err,
                     "eventlog2fxprof serve: warning: listening on %s: whoever can reach it and learns the link "
                     "can download the profile\n",
                     command.server.address.c_str());
    pid_t opener = -1;
    if (command.browser && has_desktop()) opener = open_in_browser(link);
    if (opener > 0) {
        std::fprintf(out, "Opened the link in your browser.\n");
    } else {
        std::string port = std::to_string(server.port());
        std::fprintf(out,
                     "%s: open the link yourself. From another machine, forward the port first:\n"
                     "  ssh -L %s:127.0.0.1:%s %s\n",
                     command.browser && has_desktop() ? "Could not start a browser" : "No desktop browser here",
                     port.c_str(), port.c_str(), host_name().c_str());
    }
    std::fprintf(out, "Press Ctrl-C to stop serving.\n");
    std::fflush(out);

    server.run(signals.read_fd(), err);
    if (opener > 0) ::waitpid(opener, nullptr, WNOHANG);
    std::fprintf(err, "eventlog2fxprof serve: stopped\n");
    return kOk;
}

}  // namespace el2fx::cli

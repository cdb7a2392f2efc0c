// `serve --sources`: the profiler's /source/v1 queries (samply's API) answered from the source
// directories, never for other paths, other libraries or files outside them.
#include <boost/test/unit_test.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <thread>

#include "util/rapidjson.hpp"
#include "http_client.hpp"
#include "serve/responder.hpp"
#include "serve/server.hpp"
#include "serve/source_request.hpp"
#include "temp_file.hpp"

namespace fs = std::filesystem;
using namespace el2fx;
using namespace el2fx::serve;

namespace {

constexpr const char* kToken = "00112233445566778899aabbccddeeff";
const std::string kMain = "module Main where\n\nmain :: IO ()\nmain = print \"\\u00e9\"\n";

struct SourceTree {
    testing::TempDir dir;
    fs::path root = dir.path / "src";
    SourceTree() {
        fs::create_directories(root / "sub");
        std::ofstream(root / "Main.hs") << kMain;
        std::ofstream(root / "sub" / "Lib.hs") << "module Lib where\n";
        std::ofstream(dir.path / "Secret.hs") << "secret\n";
        std::ofstream(dir.path / "prog.json.gz") << "profile";
    }
    sources::SourceRoots roots() const { return sources::SourceRoots({root.string()}); }
    std::vector<ServedFile> files() const { return files_under_token({(dir.path / "prog.json.gz").string()}, kToken); }
};

std::string query(const std::string& file, const std::string& debug_name = "ghc-source-locations") {
    rapidjson::StringBuffer b;
    rapidjson::Writer<rapidjson::StringBuffer> w(b);
    w.StartObject();
    w.Key("debugName");
    w.String(debug_name.c_str());
    w.Key("debugId");
    w.String("000000000000000000000000000000000");
    w.Key("moduleOffset");
    w.String("0x0");
    w.Key("file");
    w.String(file.data(), static_cast<rapidjson::SizeType>(file.size()));
    w.EndObject();
    return b.GetString();
}

rapidjson::Document parse(const std::string& json) {
    rapidjson::Document d;
    d.Parse(json.data(), json.size());
    BOOST_REQUIRE(!d.HasParseError());
    BOOST_REQUIRE(d.IsObject());
    return d;
}

HttpRequest request(const std::string& method, const std::string& path, std::string body = {},
                    std::vector<std::pair<std::string, std::string>> headers = {}) {
    HttpRequest r;
    r.method = method;
    r.target = r.path = path;
    r.headers = std::move(headers);
    r.headers.emplace_back("host", "127.0.0.1:3000");
    r.body = std::move(body);
    return r;
}

std::string header(const Answer& a, const std::string& name) {
    for (const auto& [k, v] : a.headers)
        if (k == name) return v;
    return "<none>";
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_query_for_a_source_file_gets_its_text) {
    SourceTree t;
    SourceAnswer a = answer_source_request(query("Main.hs"), t.roots());
    BOOST_TEST(a.found);
    auto d = parse(a.json);
    BOOST_TEST(std::string(d["source"].GetString()) == kMain);
    BOOST_TEST(std::string(d["file"].GetString()) == "Main.hs");
    BOOST_TEST(d["symbolsLastModified"].IsNull());
    BOOST_TEST(answer_source_request(query("sub/Lib.hs"), t.roots()).found);
}

BOOST_AUTO_TEST_CASE(queries_outside_the_directories_or_for_other_libraries_get_an_error) {
    SourceTree t;
    for (const std::string& file : {std::string("../Secret.hs"), (t.dir.path / "Secret.hs").string(),
                                    std::string("/etc/passwd"), std::string("Missing.hs"), std::string("")}) {
        SourceAnswer a = answer_source_request(query(file), t.roots());
        BOOST_TEST(!a.found);
        auto d = parse(a.json);
        BOOST_TEST(d.HasMember("error"));
        BOOST_TEST(!d.HasMember("source"));
    }
    BOOST_TEST(!answer_source_request(query("Main.hs", "libxul.so"), t.roots()).found);
    BOOST_TEST(!answer_source_request("{not json", t.roots()).found);
    BOOST_TEST(!answer_source_request("[]", t.roots()).found);
    BOOST_TEST(!answer_source_request("{\"debugName\": 3, \"file\": \"Main.hs\"}", t.roots()).found);
    BOOST_TEST(!answer_source_request(query("Main.hs"), sources::SourceRoots()).found);
}

BOOST_AUTO_TEST_CASE(the_endpoint_is_under_the_secret_path_and_only_with_sources) {
    SourceTree t;
    const auto files = t.files();
    const auto roots = t.roots();
    const std::string path = source_api_path(files);
    BOOST_TEST(path == std::string("/") + kToken + "/source/v1");
    Answer a = answer_request(request("POST", path, query("Main.hs")), files, &roots);
    BOOST_TEST(a.status == 200);
    BOOST_TEST(header(a, "Content-Type") == "application/json");
    BOOST_TEST(header(a, "Access-Control-Allow-Origin") == "*");
    BOOST_TEST(std::string(parse(a.body)["source"].GetString()) == kMain);
    // Chromium's preflight for a public page reaching loopback.
    Answer pre = answer_request(
        request("OPTIONS", path, {},
                {{"access-control-request-method", "POST"}, {"access-control-request-private-network", "true"}}),
        files, &roots);
    BOOST_TEST(pre.status == 204);
    BOOST_TEST(header(pre, "Access-Control-Allow-Methods") == "POST, OPTIONS");
    BOOST_TEST(header(pre, "Access-Control-Allow-Private-Network") == "true");
    BOOST_TEST(answer_request(request("GET", path), files, &roots).status == 405);
    // Without --sources, or under another token, there is no such path.
    BOOST_TEST(answer_request(request("POST", path, query("Main.hs")), files).status == 404);
    const sources::SourceRoots none;
    BOOST_TEST(answer_request(request("POST", path, query("Main.hs")), files, &none).status == 404);
    BOOST_TEST(answer_request(request("POST", "/ffff/source/v1", query("Main.hs")), files, &roots).status == 404);
    BOOST_TEST(answer_request(request("POST", "/source/v1", query("Main.hs")), files, &roots).status == 404);
    // The profile's own path still refuses POST.
    BOOST_TEST(answer_request(request("POST", files[0].url_path, "x"), files, &roots).status == 405);
}

BOOST_AUTO_TEST_CASE(a_running_server_answers_a_source_query_over_http) {
    SourceTree t;
    ServerOptions options;
    options.port = 0;
    options.sources = t.roots();
    Server server(options, t.files());
    int stop[2];
    BOOST_REQUIRE(::pipe(stop) == 0);
    std::FILE* log = std::tmpfile();
    std::thread thread([&] { server.run(stop[0], log); });
    const std::string body = query("Main.hs");
    const std::string head = "POST " + source_api_path(server.files()) +
                             " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain;charset=UTF-8\r\n"
                             "Content-Length: " +
                             std::to_string(body.size()) + "\r\n\r\n";
    {
        // The body in two pieces, then a pipelined GET on the same connection.
        testing::Socket s(server.port());
        s.send(head + body.substr(0, 10));
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        s.send(body.substr(10) + "GET " + server.files()[0].url_path + " HTTP/1.1\r\nHost: x\r\n\r\n");
        testing::HttpResponse r = s.read_response();
        BOOST_TEST(r.status == 200);
        BOOST_TEST(std::string(parse(r.body)["source"].GetString()) == kMain);
        testing::HttpResponse g = s.read_response();
        BOOST_TEST(g.status == 200);
        BOOST_TEST(g.body == "profile");
    }
    testing::HttpResponse bad =
        testing::http_exchange(server.port(), "POST " + source_api_path(server.files()) +
                                                  " HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n");
    BOOST_TEST(bad.status == 413);
    char b = 1;
    BOOST_REQUIRE(::write(stop[1], &b, 1) == 1);
    thread.join();
    ::close(stop[0]);
    ::close(stop[1]);
    std::fclose(log);
}

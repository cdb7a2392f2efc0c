// What the server answers, without sockets.
#include <boost/test/unit_test.hpp>

#include "serve/responder.hpp"

using namespace el2fx::serve;

namespace {

HttpRequest request(const std::string& method, const std::string& path,
                    std::vector<std::pair<std::string, std::string>> headers = {}) {
    HttpRequest r;
    r.method = method;
    r.target = r.path = path;
    r.headers = std::move(headers);
    r.headers.emplace_back("host", "127.0.0.1:3000");
    return r;
}

std::string header(const Answer& a, const std::string& name) {
    for (const auto& [k, v] : a.headers)
        if (k == name) return v;
    return "<none>";
}

const std::vector<ServedFile> kFiles =
    files_under_token({"/tmp/x/prog.json.gz", "other/prog.json.gz", "we ird.json"}, "0123456789abcdef0123456789abcdef");

}  // namespace

BOOST_AUTO_TEST_CASE(files_get_distinct_safe_paths_under_the_token) {
    BOOST_REQUIRE(kFiles.size() == 3u);
    BOOST_TEST(kFiles[0].url_path == "/0123456789abcdef0123456789abcdef/prog.json.gz");
    BOOST_TEST(kFiles[1].url_path == "/0123456789abcdef0123456789abcdef/2-prog.json.gz");
    BOOST_TEST(kFiles[2].url_path == "/0123456789abcdef0123456789abcdef/profile.json");
    BOOST_TEST(kFiles[0].content_type == "application/gzip");
    BOOST_TEST(kFiles[2].content_type == "application/json");
    BOOST_TEST(kFiles[0].file == "/tmp/x/prog.json.gz");
}

BOOST_AUTO_TEST_CASE(get_and_head_of_the_secret_path_serve_the_file_with_cors) {
    Answer get = answer_request(request("GET", kFiles[0].url_path), kFiles);
    BOOST_TEST(get.status == 200);
    BOOST_TEST(get.file == &kFiles[0]);
    BOOST_TEST(get.send_body);
    BOOST_TEST(!get.close);
    BOOST_TEST(header(get, "Access-Control-Allow-Origin") == "*");
    BOOST_TEST(header(get, "Content-Type") == "application/gzip");
    std::string head = get.head(1234);
    BOOST_TEST(head.rfind("HTTP/1.1 200 OK\r\n", 0) == 0u);
    BOOST_TEST(head.find("\r\nContent-Length: 1234\r\n") != std::string::npos);
    BOOST_TEST(head.substr(head.size() - 4) == "\r\n\r\n");

    Answer h = answer_request(request("HEAD", kFiles[1].url_path), kFiles);
    BOOST_TEST(h.status == 200);
    BOOST_TEST(h.file == &kFiles[1]);
    BOOST_TEST(!h.send_body);
}

BOOST_AUTO_TEST_CASE(preflights_allow_the_profilers_fetch_from_any_origin) {
    Answer a = answer_request(request("OPTIONS", kFiles[0].url_path,
                                      {{"origin", "https://profiler.firefox.com"},
                                       {"access-control-request-method", "GET"},
                                       {"access-control-request-headers", "content-type, x-requested-with"},
                                       {"access-control-request-private-network", "true"}}),
                              kFiles);
    BOOST_TEST(a.status == 204);
    BOOST_TEST(!a.send_body);
    BOOST_TEST(header(a, "Access-Control-Allow-Origin") == "*");
    BOOST_TEST(header(a, "Access-Control-Allow-Methods") == "GET, HEAD, OPTIONS");
    BOOST_TEST(header(a, "Access-Control-Allow-Headers") == "content-type, x-requested-with");
    BOOST_TEST(header(a, "Access-Control-Allow-Private-Network") == "true");
    BOOST_TEST(a.head(0).find("Content-Length") == std::string::npos);  // none on a 204

    Answer weird = answer_request(
        request("OPTIONS", kFiles[0].url_path,
                {{"access-control-request-method", "GET"}, {"access-control-request-headers", "x\r\nInjected: 1"}}),
        kFiles);
    BOOST_TEST(header(weird, "Access-Control-Allow-Headers") == "<none>");  // not echoed

    Answer plain = answer_request(request("OPTIONS", kFiles[0].url_path), kFiles);
    BOOST_TEST(plain.status == 204);
    BOOST_TEST(header(plain, "Allow") == "GET, HEAD, OPTIONS");
}

BOOST_AUTO_TEST_CASE(anything_else_is_404_or_405) {
    for (const char* path :
         {"/", "/0123456789abcdef0123456789abcdef", "/0123456789abcdef0123456789abcdef/",
          "/0123456789abcdef0123456789abcdef/../prog.json.gz", "/etc/passwd",
          "/0123456789abcdef0123456789abcdef/prog.json.gz/", "/0123456789ABCDEF0123456789ABCDEF/prog.json.gz"}) {
        Answer a = answer_request(request("GET", path), kFiles);
        BOOST_TEST(a.status == 404, path);
        BOOST_TEST(!a.file);
        BOOST_TEST(header(a, "Access-Control-Allow-Origin") == "<none>");  // other pages learn nothing
    }
    BOOST_TEST(answer_request(request("POST", "/nope"), kFiles).status == 404);
    for (const char* method : {"POST", "PUT", "DELETE", "PATCH", "TRACE", "CONNECT", "get"}) {
        Answer a = answer_request(request(method, kFiles[0].url_path), kFiles);
        BOOST_TEST(a.status == 405, method);
        BOOST_TEST(header(a, "Allow") == "GET, HEAD, OPTIONS");
    }
}

BOOST_AUTO_TEST_CASE(errors_close_the_connection) {
    BOOST_TEST(answer_unparsable(ParseStatus::bad_request).status == 400);
    BOOST_TEST(answer_unparsable(ParseStatus::head_too_large).status == 431);
    BOOST_TEST(answer_unparsable(ParseStatus::body_not_accepted).status == 413);
    BOOST_TEST(answer_unparsable(ParseStatus::version_not_supported).status == 505);
    BOOST_TEST(answer_unparsable(ParseStatus::bad_request).close);
    BOOST_TEST(answer_timeout().status == 408);
    BOOST_TEST(answer_timeout().head(3).find("Connection: close") != std::string::npos);
    HttpRequest old = request("GET", kFiles[0].url_path);
    old.minor_version = 0;
    BOOST_TEST(answer_request(old, kFiles).close);
}

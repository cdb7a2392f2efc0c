#include "serve/source_request.hpp"

#include "util/rapidjson.hpp"
#include "util/utf8.hpp"

namespace el2fx::serve {
namespace {

std::string error_json(std::string_view message) {
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
    w.StartObject();
    w.Key("error");
    w.String(message.data(), static_cast<rapidjson::SizeType>(message.size()));
    w.EndObject();
    return {buffer.GetString(), buffer.GetSize()};
}

const rapidjson::Value* string_member(const rapidjson::Value& object, const char* key) {
    auto it = object.FindMember(key);
    return it != object.MemberEnd() && it->value.IsString() ? &it->value : nullptr;
}

}  // namespace

SourceAnswer answer_source_request(std::string_view request_body, const sources::SourceRoots& roots) {
    if (request_body.size() > 64 * 1024 || !utf8::is_valid(request_body))
        return {error_json("malformed request"), false};
    rapidjson::Document request;
    request.Parse<rapidjson::kParseStopWhenDoneFlag>(request_body.data(), request_body.size());
    if (request.HasParseError() || !request.IsObject()) return {error_json("malformed request"), false};
    const rapidjson::Value* debug_name = string_member(request, "debugName");
    const rapidjson::Value* file = string_member(request, "file");
    if (!debug_name || !file) return {error_json("the request needs debugName and file"), false};
    if (std::string_view(debug_name->GetString(), debug_name->GetStringLength()) != sources::kLibDebugName)
        return {error_json("no source files for this library"), false};
    const std::string_view name(file->GetString(), file->GetStringLength());
    if (roots.empty()) return {error_json("no --sources directory was given"), false};
    sources::SourceRoots::Text text = roots.read(name);
    if (text.refusal != sources::Refusal::none) return {error_json(sources::describe(text.refusal)), false};

    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
    w.StartObject();
    w.Key("symbolsLastModified");
    w.Null();
    w.Key("sourceLastModified");
    w.Null();
    w.Key("file");
    w.String(name.data(), static_cast<rapidjson::SizeType>(name.size()));
    w.Key("source");
    w.String(text.content.data(), static_cast<rapidjson::SizeType>(text.content.size()));
    w.EndObject();
    return {std::string(buffer.GetString(), buffer.GetSize()), true};
}

}  // namespace el2fx::serve

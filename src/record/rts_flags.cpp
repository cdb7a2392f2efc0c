#include "record/rts_flags.hpp"

#include <cctype>

#include "util/error.hpp"

namespace el2fx::record {

std::vector<std::string> split_words(const std::string& text) {
    std::vector<std::string> words;
    std::string word;
    for (char c : text) {
        if (std::isspace(static_cast<unsigned char>(c))) {
            if (!word.empty()) words.push_back(std::move(word));
            word.clear();
        } else {
            word += c;
        }
    }
    if (!word.empty()) words.push_back(std::move(word));
    return words;
}

std::string rts_seconds(std::uint64_t ns) {
    std::string s = std::to_string(ns / 1'000'000'000ULL);
    std::uint64_t frac = ns % 1'000'000'000ULL;
    if (frac == 0) return s;
    std::string digits = std::to_string(frac);
    digits.insert(0, 9 - digits.size(), '0');
    while (digits.back() == '0') digits.pop_back();
    return s + "." + digits;
}

std::vector<std::string> rts_flags(const RecordRequest& request, bool profiled, const std::string& eventlog) {
    std::vector<std::string> flags = {"+RTS", request.sparks ? "-lf" : "-l", "-ol" + eventlog};
    if (request.heap) flags.push_back(profiled ? "-h" : "-hT");
    if (request.rts_interval_ns) flags.push_back("-i" + rts_seconds(*request.rts_interval_ns));
    for (std::string& w : split_words(request.rts)) flags.push_back(std::move(w));
    flags.push_back("-RTS");
    return flags;
}

void check_user_rts_options(const std::vector<std::string>& args, const char* ghcrts) {
    auto refuse = [](const std::string& where, const std::string& flag) {
        throw Error(where + " already sends the eventlog elsewhere (" + flag +
                    "): remove it, record reads the eventlog through its own pipe");
    };
    bool rts = false;
    for (const std::string& a : args) {
        if (a == "--RTS") break;
        if (a == "+RTS")
            rts = true;
        else if (a == "-RTS")
            rts = false;
        else if (rts && a.rfind("-ol", 0) == 0)
            refuse("the program's arguments", a);
    }
    if (ghcrts)
        for (const std::string& w : split_words(ghcrts))
            if (w.rfind("-ol", 0) == 0) refuse("GHCRTS", w);
}

std::string shell_command_line(const std::vector<std::string>& argv) {
    std::string line;
    for (const std::string& a : argv) {
        if (!line.empty()) line += ' ';
        bool plain = !a.empty();
        for (char c : a)
            if (!(std::isalnum(static_cast<unsigned char>(c)) ||
                  std::string_view("-_./=+:,@%").find(c) != std::string_view::npos))
                plain = false;
        if (plain) {
            line += a;
            continue;
        }
        line += '\'';
        for (char c : a) {
            if (c == '\'')
                line += "'\\''";
            else
                line += c;
        }
        line += '\'';
    }
    return line;
}

}  // namespace el2fx::record

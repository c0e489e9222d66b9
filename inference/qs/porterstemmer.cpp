// Porter stemmer with NLTK's extensions (nltk 3.5 PorterStemmer(), mode NLTK_EXTENSIONS), the
// stemmer `rouge_score` uses: the irregular-forms pool, no stemming of words of 1-2 letters,
// "ies"/"ied" of 4-letter words -> "ie", step 1c only after a consonant, "alli", "fulli" and
// "logi" rules, and the 2-letter CVC case in step 1b. Written from the algorithm's description.
#include "inference/qs/qsmetrics.h"

#include <functional>
#include <map>

namespace folio::inference {

namespace {

using Cond = std::function<bool(const std::string &)>;
struct Rule
{
    std::string suffix, replacement;
    Cond condition; // empty = always
};

bool endsWith(const std::string &w, const std::string &s)
{
    return w.size() >= s.size() && w.compare(w.size() - s.size(), s.size(), s) == 0;
}

std::string cut(const std::string &w, const std::string &suffix)
{
    return w.substr(0, w.size() - suffix.size());
}

bool consonant(const std::string &w, std::size_t i)
{
    const char c = w[i];
    if (c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u')
        return false;
    if (c == 'y')
        return i == 0 ? true : !consonant(w, i - 1);
    return true;
}

int measure(const std::string &s)
{
    int m = 0;
    for (std::size_t i = 1; i < s.size(); ++i)
        if (!consonant(s, i - 1) && consonant(s, i))
            ++m;
    return m;
}

bool hasVowel(const std::string &s)
{
    for (std::size_t i = 0; i < s.size(); ++i)
        if (!consonant(s, i))
            return true;
    return false;
}

bool endsDoubleConsonant(const std::string &w)
{
    return w.size() >= 2 && w[w.size() - 1] == w[w.size() - 2] && consonant(w, w.size() - 1);
}

bool endsCvc(const std::string &w)
{
    const auto n = w.size();
    if (n >= 3 && consonant(w, n - 3) && !consonant(w, n - 2) && consonant(w, n - 1))
        return w[n - 1] != 'w' && w[n - 1] != 'x' && w[n - 1] != 'y';
    return n == 2 && !consonant(w, 0) && consonant(w, 1);
}

// The first rule whose suffix matches decides: its replacement when the condition holds on the
// stem, else the word unchanged. "*d" matches a double consonant and drops both letters.
std::string applyRules(const std::string &w, const std::vector<Rule> &rules)
{
    for (const Rule &r : rules) {
        if (r.suffix == "*d") {
            if (endsDoubleConsonant(w)) {
                const std::string stem = w.substr(0, w.size() - 2);
                return (!r.condition || r.condition(stem)) ? stem + r.replacement : w;
            }
            continue;
        }
        if (endsWith(w, r.suffix)) {
            const std::string stem = cut(w, r.suffix);
            return (!r.condition || r.condition(stem)) ? stem + r.replacement : w;
        }
    }
    return w;
}

const Cond positive = [](const std::string &s) { return measure(s) > 0; };
const Cond aboveOne = [](const std::string &s) { return measure(s) > 1; };

std::string step1a(const std::string &w)
{
    if (endsWith(w, "ies") && w.size() == 4)
        return cut(w, "ies") + "ie";
    return applyRules(w, {{"sses", "ss", {}}, {"ies", "i", {}}, {"ss", "ss", {}}, {"s", "", {}}});
}

std::string step1b(const std::string &w)
{
    if (endsWith(w, "ied"))
        return cut(w, "ied") + (w.size() == 4 ? "ie" : "i");
    if (endsWith(w, "eed")) {
        const std::string stem = cut(w, "eed");
        return measure(stem) > 0 ? stem + "ee" : w;
    }
    std::string stem;
    bool ok = false;
    for (const char *suffix : {"ed", "ing"}) {
        if (endsWith(w, suffix)) {
            stem = cut(w, suffix);
            if (hasVowel(stem)) {
                ok = true;
                break;
            }
        }
    }
    if (!ok)
        return w;
    const char last = stem.back();
    return applyRules(stem, {{"at", "ate", {}},
                             {"bl", "ble", {}},
                             {"iz", "ize", {}},
                             {"*d", std::string(1, last), [last](const std::string &) { return last != 'l' && last != 's' && last != 'z'; }},
                             {"", "e", [](const std::string &s) { return measure(s) == 1 && endsCvc(s); }}});
}

std::string step1c(const std::string &w)
{
    return applyRules(w, {{"y", "i", [](const std::string &s) { return s.size() > 1 && consonant(s, s.size() - 1); }}});
}

std::string step2(const std::string &w)
{
    if (endsWith(w, "alli") && measure(cut(w, "alli")) > 0)
        return step2(cut(w, "alli") + "al");
    const Cond logi = [w](const std::string &) { return measure(w.substr(0, w.size() - 3)) > 0; };
    return applyRules(w, {{"ational", "ate", positive}, {"tional", "tion", positive}, {"enci", "ence", positive},
                          {"anci", "ance", positive},   {"izer", "ize", positive},     {"bli", "ble", positive},
                          {"alli", "al", positive},     {"entli", "ent", positive},    {"eli", "e", positive},
                          {"ousli", "ous", positive},   {"ization", "ize", positive},  {"ation", "ate", positive},
                          {"ator", "ate", positive},    {"alism", "al", positive},     {"iveness", "ive", positive},
                          {"fulness", "ful", positive}, {"ousness", "ous", positive},  {"aliti", "al", positive},
                          {"iviti", "ive", positive},   {"biliti", "ble", positive},   {"fulli", "ful", positive},
                          {"logi", "log", logi}});
}

std::string step3(const std::string &w)
{
    return applyRules(w, {{"icate", "ic", positive}, {"ative", "", positive}, {"alize", "al", positive},
                          {"iciti", "ic", positive}, {"ical", "ic", positive}, {"ful", "", positive},
                          {"ness", "", positive}});
}

std::string step4(const std::string &w)
{
    const Cond ion = [](const std::string &s) { return measure(s) > 1 && !s.empty() && (s.back() == 's' || s.back() == 't'); };
    std::vector<Rule> rules;
    for (const char *s : {"al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent"})
        rules.push_back({s, "", aboveOne});
    rules.push_back({"ion", "", ion});
    for (const char *s : {"ou", "ism", "ate", "iti", "ous", "ive", "ize"})
        rules.push_back({s, "", aboveOne});
    return applyRules(w, rules);
}

std::string step5(const std::string &w0)
{
    std::string w = w0;
    if (endsWith(w, "e")) {
        const std::string stem = cut(w, "e");
        const int m = measure(stem);
        if (m > 1 || (m == 1 && !endsCvc(stem)))
            w = stem;
    }
    if (endsWith(w, "ll") && measure(w.substr(0, w.size() - 1)) > 1)
        w.pop_back();
    return w;
}

} // namespace

std::string porterStem(const std::string &word)
{
    static const std::map<std::string, std::string> pool = {
        {"sky", "sky"},       {"skies", "sky"},      {"dying", "die"},      {"lying", "lie"},
        {"tying", "tie"},     {"news", "news"},      {"innings", "inning"}, {"inning", "inning"},
        {"outings", "outing"}, {"outing", "outing"}, {"cannings", "canning"}, {"canning", "canning"},
        {"howe", "howe"},     {"proceed", "proceed"}, {"exceed", "exceed"}, {"succeed", "succeed"}};
    std::string w = word;
    for (char &c : w)
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    if (auto it = pool.find(w); it != pool.end())
        return it->second;
    if (w.size() <= 2)
        return w;
    return step5(step4(step3(step2(step1c(step1b(step1a(w)))))));
}

} // namespace folio::inference

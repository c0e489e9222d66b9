#include "document/structured/benchmarkscore.h"

#include "document/structured/pythonrandom.h"

#include <QString>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

namespace folio::structured {

namespace {

constexpr std::uintmax_t kMaxFileBytes = 256ull << 20;

bool fail(QString *error, const std::string &message)
{
    if (error)
        *error = QString::fromStdString(message);
    return false;
}

bool readJsonFile(const std::string &path, nlohmann::ordered_json *json, QString *error)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return fail(error, path + ": cannot open the file");
    in.seekg(0, std::ios::end);
    const auto size = std::uintmax_t(in.tellg());
    if (size > kMaxFileBytes)
        return fail(error, path + ": larger than 256 MiB");
    in.seekg(0);
    std::string text(size, '\0');
    in.read(text.data(), std::streamsize(size));
    *json = nlohmann::ordered_json::parse(text, nullptr, false);
    if (json->is_discarded())
        return fail(error, path + ": not valid JSON");
    if (!json->is_object())
        return fail(error, path + ": expected a JSON object {page: {attribute: ...}}");
    return true;
}

std::string scalarText(const nlohmann::ordered_json &v)
{
    if (v.is_string())
        return v.get<std::string>();
    if (v.is_number_integer())
        return std::to_string(v.get<long long>());
    return v.dump(); // other numbers / booleans in their JSON spelling
}

double precisionOf(const TpFpFn &c)
{
    if (c.fp == 0 && c.fn == 0)
        return 1.0;
    if (c.tp == 0 && c.fp == 0)
        return 0.0;
    return double(c.tp) / double(c.tp + c.fp);
}

double recallOf(const TpFpFn &c)
{
    if (c.fp == 0 && c.fn == 0)
        return 1.0;
    if (c.tp == 0 && c.fn == 0)
        return 0.0;
    return double(c.tp) / double(c.tp + c.fn);
}

void fillRates(const TpFpFn &c, double *p, double *r, double *f)
{
    *p = precisionOf(c);
    *r = recallOf(c);
    *f = (*p + *r > 0) ? 2 * *p * *r / (*p + *r) : 0.0;
}

double sampleStdev(const std::vector<double> &v)
{
    if (v.size() < 2)
        return 0.0;
    long double mean = 0;
    for (double x : v)
        mean += x;
    mean /= v.size();
    long double ss = 0;
    for (double x : v)
        ss += (x - mean) * (x - mean);
    return double(std::sqrt(ss / (v.size() - 1)));
}

} // namespace

const std::vector<std::pair<std::string, BenchmarkMatching>> &benchmarkAttributes()
{
    static const std::vector<std::pair<std::string, BenchmarkMatching>> list{
        {"price", BenchmarkMatching::Decimal},      {"sku", BenchmarkMatching::Exact},
        {"availability", BenchmarkMatching::Exact}, {"InStock", BenchmarkMatching::Exact},
        {"OutOfStock", BenchmarkMatching::Exact},
    };
    return list;
}

bool readBenchmarkTruth(const std::string &path, BenchmarkTruth *out, QString *error)
{
    nlohmann::ordered_json json;
    if (!readJsonFile(path, &json, error))
        return false;
    BenchmarkTruth truth;
    for (const auto &[key, page] : json.items()) {
        if (!page.is_object())
            return fail(error, path + ": page " + key + " is not an object");
        BenchmarkPage p;
        p.key = key;
        for (const auto &[attr, v] : page.items()) {
            if (attr == "url")
                continue;
            auto &list = p.values[attr];
            if (v.is_array()) {
                for (const auto &x : v)
                    if (!x.is_null())
                        list.push_back(scalarText(x));
            } else if (!v.is_null()) {
                list.push_back(scalarText(v));
            }
        }
        truth.push_back(std::move(p));
    }
    *out = std::move(truth);
    return true;
}

bool readBenchmarkPrediction(const std::string &path, BenchmarkPrediction *out, QString *error)
{
    nlohmann::ordered_json json;
    if (!readJsonFile(path, &json, error))
        return false;
    BenchmarkPrediction pred;
    for (const auto &[key, page] : json.items()) {
        if (!page.is_object())
            return fail(error, path + ": page " + key + " is not an object");
        auto &row = pred[key];
        for (const auto &[attr, v] : page.items()) {
            if (v.is_array()) {
                if (!v.empty() && !v.front().is_null())
                    row[attr] = scalarText(v.front());
            } else if (!v.is_null()) {
                row[attr] = scalarText(v);
            }
        }
    }
    *out = std::move(pred);
    return true;
}

std::optional<std::string> canonicalDecimal(const std::string &text)
{
    // Python Decimal(str): surrounding white space allowed, sign, digits with one optional point
    // (at least one digit), optional exponent; '_' between digits.
    std::size_t b = 0, e = text.size();
    while (b < e && std::isspace(static_cast<unsigned char>(text[b])))
        ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(text[e - 1])))
        --e;
    std::size_t i = b;
    bool negative = false;
    if (i < e && (text[i] == '+' || text[i] == '-'))
        negative = text[i++] == '-';
    std::string digits;
    long long exponent = 0;
    bool point = false, any = false;
    char prev = 0;
    for (; i < e; ++i) {
        const char c = text[i];
        if (c >= '0' && c <= '9') {
            digits.push_back(c);
            any = true;
            if (point)
                --exponent;
        } else if (c == '.' && !point) {
            point = true;
        } else if (c == '_' && prev >= '0' && prev <= '9' && i + 1 < e && std::isdigit(static_cast<unsigned char>(text[i + 1]))) {
            // digit separator
        } else {
            break;
        }
        prev = c;
    }
    if (!any)
        return std::nullopt;
    if (i < e && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        bool expNeg = false;
        if (i < e && (text[i] == '+' || text[i] == '-'))
            expNeg = text[i++] == '-';
        if (i >= e)
            return std::nullopt;
        long long x = 0;
        for (; i < e; ++i) {
            if (!std::isdigit(static_cast<unsigned char>(text[i])))
                return std::nullopt;
            if (x < 1000000000LL)
                x = x * 10 + (text[i] - '0');
        }
        exponent += expNeg ? -x : x;
    }
    if (i != e)
        return std::nullopt;
    const auto first = digits.find_first_not_of('0');
    if (first == std::string::npos)
        return std::string("0");
    digits.erase(0, first);
    while (digits.size() > 1 && digits.back() == '0') {
        digits.pop_back();
        ++exponent;
    }
    return (negative ? "-" : "") + digits + "e" + std::to_string(exponent);
}

TpFpFn matchValue(const std::vector<std::string> &accepted, const std::optional<std::string> &predicted,
                  BenchmarkMatching matching)
{
    TpFpFn c;
    const bool hasTruth = !accepted.empty();
    if (!predicted) {
        if (hasTruth)
            c.fn = 1;
        return c;
    }
    bool hit = false;
    if (matching == BenchmarkMatching::Decimal) {
        const auto p = canonicalDecimal(*predicted);
        if (p)
            for (const auto &a : accepted)
                hit = hit || canonicalDecimal(a) == p;
    } else {
        hit = std::find(accepted.begin(), accepted.end(), *predicted) != accepted.end();
    }
    if (hit) {
        c.tp = 1;
    } else {
        c.fp = 1;
        if (hasTruth)
            c.fn = 1;
    }
    return c;
}

bool scoreAttribute(const BenchmarkTruth &truth, const BenchmarkPrediction &prediction, const std::string &attribute,
                    BenchmarkMatching matching, AttributeMetrics *metrics, QString *error, int bootstrap,
                    const std::string &predictionName)
{
    std::set<std::string> truthKeys;
    for (const auto &p : truth)
        truthKeys.insert(p.key);
    for (const auto &p : truth)
        if (!prediction.count(p.key))
            return fail(error, predictionName + ": no entry for page " + p.key + " of the ground truth");
    for (const auto &[key, row] : prediction)
        if (!truthKeys.count(key))
            return fail(error, predictionName + ": page " + key + " is not in the ground truth");

    std::vector<TpFpFn> perPage;
    perPage.reserve(truth.size());
    AttributeMetrics m;
    for (const auto &page : truth) {
        static const std::vector<std::string> none;
        const auto t = page.values.find(attribute);
        const auto &accepted = t == page.values.end() ? none : t->second;
        m.support += accepted.empty() ? 0 : 1;
        const auto &row = prediction.at(page.key);
        const auto p = row.find(attribute);
        perPage.push_back(matchValue(accepted, p == row.end() ? std::optional<std::string>() : p->second, matching));
    }
    auto sum = [](const std::vector<TpFpFn> &v, const std::vector<int> *idx) {
        TpFpFn s;
        const std::size_t n = idx ? idx->size() : v.size();
        for (std::size_t i = 0; i < n; ++i) {
            const auto &c = v[idx ? std::size_t((*idx)[i]) : i];
            s.tp += c.tp;
            s.fp += c.fp;
            s.fn += c.fn;
        }
        return s;
    };
    m.counts = sum(perPage, nullptr);
    fillRates(m.counts, &m.precision, &m.recall, &m.f1);
    if (bootstrap > 1 && !perPage.empty()) {
        PythonRandom rng(42);
        const auto n = std::int64_t(perPage.size());
        std::vector<double> ps, rs, fs;
        std::vector<int> idx(perPage.size());
        for (int b = 0; b < bootstrap; ++b) {
            for (auto &k : idx)
                k = int(rng.randint(0, n - 1));
            double p, r, f;
            fillRates(sum(perPage, &idx), &p, &r, &f);
            ps.push_back(p);
            rs.push_back(r);
            fs.push_back(f);
        }
        m.precisionStd = sampleStdev(ps);
        m.recallStd = sampleStdev(rs);
        m.f1Std = sampleStdev(fs);
    }
    *metrics = m;
    return true;
}

void fillAvailability(BenchmarkPrediction *prediction)
{
    for (auto &[key, row] : *prediction) {
        auto &a = row["availability"];
        if (a.empty())
            a = "InStock";
        row.erase("InStock");
        row.erase("OutOfStock");
        if (a == "InStock" || a == "OutOfStock")
            row[a] = a;
    }
}

} // namespace folio::structured

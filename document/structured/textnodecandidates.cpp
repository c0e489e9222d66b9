#include "document/structured/textnodecandidates.h"

#include "document/structured/candidatecontext.h"
#include "document/structured/normalise.h"

#include <QStringList>

#include <algorithm>
#include <cmath>
#include <map>

namespace folio::structured {

namespace {

constexpr int kMaxNodeChars = 300;

const std::map<std::string, QStringList> &labelTable()
{
    static const std::map<std::string, QStringList> table{
        {"author", {"author", "authors", "by", "written by", "writer", "autor", "auteur"}},
        {"publisher", {"publisher", "published by", "imprint", "verlag", "editeur", "éditeur", "editorial"}},
        {"publication_date", {"publication date", "published", "pub\\. date", "pub date", "release date", "date", "year"}},
        {"isbn_13", {"isbn", "isbn-13", "isbn13", "ean"}},
        {"title", {"title"}},
        {"price", {"price", "our price", "sale price"}},
        {"sku", {"sku", "item", "article", "ref", "model"}},
        {"brand", {"brand", "manufacturer", "by"}},
    };
    return table;
}

bool isValidIsbn13(const QString &text)
{
    std::string digits;
    for (QChar c : text) {
        if (c.isDigit())
            digits.push_back(char(c.unicode()));
        else if (c.isLetter())
            return false;
    }
    return digits.size() == 13 && (digits.rfind("978", 0) == 0 || digits.rfind("979", 0) == 0) && isValidGtin(digits);
}

QString elementText(const Document &doc, const char *tag)
{
    for (int n = 0; n < int(doc.nodes.size()); ++n)
        if (doc.nodes[std::size_t(n)].kind == NodeKind::Element && doc.nodes[std::size_t(n)].tag == QLatin1String(tag))
            return leadingText(doc, n, 500).simplified();
    return {};
}

} // namespace

QRegularExpression fieldLabelPattern(const std::string &field)
{
    QStringList words;
    const auto it = labelTable().find(field);
    if (it != labelTable().end())
        words = it->second;
    for (const QString &w : QString::fromStdString(field).split(QRegularExpression(QStringLiteral("[_\\-\\s]+")), Qt::SkipEmptyParts))
        if (w.size() >= 3 && !words.contains(w, Qt::CaseInsensitive))
            words << QRegularExpression::escape(w);
    return QRegularExpression(QStringLiteral("\\b(%1)\\b").arg(words.join(QLatin1Char('|'))),
                              QRegularExpression::CaseInsensitiveOption | QRegularExpression::UseUnicodePropertiesOption);
}

const std::vector<std::string> &textNodeFeatureNames()
{
    static const std::vector<std::string> names{
        "label_at_node_start", "label_in_previous_node", "label_two_nodes_before", "label_in_ancestor_attributes",
        "node_is_a_label", "leading_colon", "log_words", "log_chars", "digit_share", "letter_share",
        "capitalised_word_share", "valid_isbn13", "has_year", "has_month_name", "in_h1", "in_heading", "in_link",
        "in_bold", "in_title_element", "inside_page_title", "page_position", "after_h1", "log_repeats",
        "elsewhere_word_near", "share_of_site_pages_with_text"};
    return names;
}

std::vector<TextCandidate> findTextNodeCandidates(const Document &doc, const std::string &field, const SiteTexts *site,
                                                  int maxCandidates)
{
    const QRegularExpression label = fieldLabelPattern(field);
    const QRegularExpression labelAtStart(QStringLiteral("^\\W*(") + label.pattern() + QStringLiteral(")"), label.patternOptions());
    static const QRegularExpression year(QStringLiteral("\\b(1[5-9]|20)\\d\\d\\b"));
    static const QRegularExpression month(
        QStringLiteral("\\b(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\b"), QRegularExpression::CaseInsensitiveOption);
    const TextNodeOrder order = textNodeOrder(doc);
    const QString pageTitle = elementText(doc, "title").toLower();
    std::map<QString, int> repeats;
    for (int n : order.nodes)
        ++repeats[doc.nodes[std::size_t(n)].text.simplified()];
    const double total = std::max<std::size_t>(1, order.nodes.size());
    const QString fieldWord = QString::fromStdString(field).section(QLatin1Char('_'), 0, 0);
    std::vector<TextCandidate> out;
    for (std::size_t k = 0; k < order.nodes.size() && int(out.size()) < maxCandidates; ++k) {
        const int n = order.nodes[k];
        const QString &raw = doc.nodes[std::size_t(n)].text;
        const QString text = raw.simplified();
        if (text.isEmpty() || text.size() > kMaxNodeChars)
            continue;
        TextCandidate c;
        c.node = n;
        c.start = int(raw.indexOf(text.left(1)));
        c.end = int(raw.size());
        c.text = text.toStdString();
        c.value = c.text;
        const QString previous = k >= 1 ? doc.nodes[std::size_t(order.nodes[k - 1])].text.simplified().right(40) : QString();
        const QString before = k >= 2 ? doc.nodes[std::size_t(order.nodes[k - 2])].text.simplified().right(40) : QString();
        const std::vector<QString> chain = ancestorDescriptions(doc, n, 4);
        bool attr = false, near = false;
        for (const QString &d : chain) {
            attr = attr || (fieldWord.size() >= 3 && d.contains(fieldWord, Qt::CaseInsensitive)) || matches(label, d);
            near = near || matches(elsewhereWords(), d);
        }
        const QStringList words = text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        int digits = 0, letters = 0, capitalised = 0;
        for (QChar ch : text) {
            digits += ch.isDigit() ? 1 : 0;
            letters += ch.isLetter() ? 1 : 0;
        }
        for (const QString &w : words)
            capitalised += !w.isEmpty() && w.front().isUpper() ? 1 : 0;
        const bool isLabel = words.size() <= 3 && matches(labelAtStart, text) && text.size() <= 30
                             && (text.endsWith(QLatin1Char(':')) || words.size() <= 2);
        const int number = order.number[std::size_t(n)];
        c.features = {
            matches(labelAtStart, text) ? 1.f : 0.f,
            matches(label, previous) ? 1.f : 0.f,
            matches(label, before) ? 1.f : 0.f,
            attr ? 1.f : 0.f,
            isLabel ? 1.f : 0.f,
            text.startsWith(QLatin1Char(':')) ? 1.f : 0.f,
            float(std::log1p(double(words.size()))),
            float(std::log1p(double(text.size()))),
            float(double(digits) / text.size()),
            float(double(letters) / text.size()),
            words.isEmpty() ? 0.f : float(double(capitalised) / words.size()),
            isValidIsbn13(text) ? 1.f : 0.f,
            matches(year, text) ? 1.f : 0.f,
            matches(month, text) ? 1.f : 0.f,
            underTag(doc, n, 4, {"h1"}) ? 1.f : 0.f,
            underTag(doc, n, 4, {"h1", "h2", "h3"}) ? 1.f : 0.f,
            underTag(doc, n, 3, {"a"}) ? 1.f : 0.f,
            underTag(doc, n, 3, {"b", "strong"}) ? 1.f : 0.f,
            underTag(doc, n, 2, {"title"}) ? 1.f : 0.f,
            text.size() >= 3 && pageTitle.contains(text.toLower()) ? 1.f : 0.f,
            float(number / total),
            order.h1At >= 0 && number > order.h1At ? 1.f : 0.f,
            float(std::log1p(double(repeats[text]))),
            near ? 1.f : 0.f,
            site ? float(site->shareOfOtherPages(text)) : 0.f,
        };
        out.push_back(std::move(c));
    }
    return out;
}

} // namespace folio::structured

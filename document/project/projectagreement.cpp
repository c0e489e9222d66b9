#include "document/project/projectagreement.h"

#include "document/project/project.h"

#include <QHash>
#include <QSet>

namespace folio {

static bool counts(const Entity &e) { return e.state != ReviewState::Suggested && e.state != ReviewState::Rejected; }

static QString entityKey(const Entity &e)
{
    QStringList words = e.wordIds;
    words.sort();
    return e.label + QLatin1Char('\x1f') + words.join(QLatin1Char(' '));
}

// word id -> label of the first counted entity holding it
static QHash<QString, QString> tokenLabels(const Annotations &a)
{
    QHash<QString, QString> out;
    for (const Entity &e : a.entities)
        if (counts(e))
            for (const QString &w : e.wordIds)
                if (!out.contains(w))
                    out.insert(w, e.label);
    return out;
}

void AgreementAccumulator::add(const Document &document, const Annotations &a, const Annotations &b)
{
    ++m_documents;
    QHash<QString, int> keysA;
    for (const Entity &e : a.entities)
        if (counts(e)) {
            ++m_entitiesA;
            ++keysA[entityKey(e)];
        }
    for (const Entity &e : b.entities)
        if (counts(e)) {
            ++m_entitiesB;
            auto it = keysA.find(entityKey(e));
            if (it != keysA.end() && *it > 0) {
                --*it;
                ++m_matched;
            }
        }
    const QHash<QString, QString> la = tokenLabels(a), lb = tokenLabels(b);
    const QString outside = QStringLiteral("O");
    for (const Word &w : document.words)
        ++m_confusion[{la.value(w.id, outside), lb.value(w.id, outside)}];
}

Agreement AgreementAccumulator::result() const
{
    Agreement r;
    r.documents = m_documents;
    r.entitiesA = m_entitiesA;
    r.entitiesB = m_entitiesB;
    r.matchedEntities = m_matched;
    r.entityF1 = (m_entitiesA + m_entitiesB) == 0 ? 1.0 : 2.0 * m_matched / double(m_entitiesA + m_entitiesB);
    long n = 0, same = 0;
    std::map<QString, long> rowA, colB;
    for (const auto &[labels, count] : m_confusion) {
        n += count;
        if (labels.first == labels.second)
            same += count;
        rowA[labels.first] += count;
        colB[labels.second] += count;
    }
    r.tokens = int(n);
    if (n == 0)
        return r;
    r.observed = double(same) / double(n);
    double pe = 0;
    for (const auto &[label, count] : rowA) {
        auto it = colB.find(label);
        if (it != colB.end())
            pe += (double(count) / double(n)) * (double(it->second) / double(n));
    }
    r.kappa = pe >= 1.0 - 1e-12 ? (r.observed >= 1.0 ? 1.0 : 0.0) : (r.observed - pe) / (1.0 - pe);
    return r;
}

Agreement compareAnnotations(const Document &document, const Annotations &a, const Annotations &b)
{
    AgreementAccumulator acc;
    acc.add(document, a, b);
    return acc.result();
}

bool projectAgreement(const Project &project, const QString &userA, const QString &userB, Agreement *total,
                      std::vector<std::pair<qint64, Agreement>> *perDocument, QString *error)
{
    AgreementAccumulator acc;
    if (perDocument)
        perDocument->clear();
    QString e;
    const auto docs = project.documents(DocumentOrder::Position, &e);
    if (!e.isEmpty()) {
        *error = e;
        return false;
    }
    for (const ProjectDocument &d : docs) {
        const QStringList who = project.annotatorsOf(d.id, &e);
        if (!who.contains(userA) || !who.contains(userB))
            continue;
        Document doc;
        Annotations a, b;
        if (!project.loadDocument(d.id, &doc, nullptr, error) || !project.annotatorVersion(d.id, userA, &a, error)
            || !project.annotatorVersion(d.id, userB, &b, error))
            return false;
        acc.add(doc, a, b);
        if (perDocument)
            perDocument->emplace_back(d.id, compareAnnotations(doc, a, b));
    }
    *total = acc.result();
    return true;
}

} // namespace folio

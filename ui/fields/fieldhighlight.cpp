#include "ui/fields/fieldhighlight.h"

#include "ui/commands/fieldcommands.h"
#include "ui/labelcolors.h"
#include "ui/documents/webpage.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QWebEngineScript>

namespace folio {

std::vector<FieldMark> fieldMarks(const Document &doc, const Annotations &annotations, const QStringList &fields)
{
    QHash<QString, int> wordIndex;
    for (int i = 0; i < int(doc.words.size()); ++i)
        wordIndex.insert(doc.words[size_t(i)].id, i);
    std::vector<FieldMark> marks;
    for (const QString &field : fields) {
        const FieldValue *answer = fieldedits::answerOf(annotations, field);
        if (!answer || answer->state == ReviewState::Rejected || fieldedits::isNoValue(*answer))
            continue;
        FieldMark m;
        m.field = field;
        m.suggested = answer->state == ReviewState::Suggested;
        m.color = labelColor(field);
        m.label = answer->state == ReviewState::Accepted ? field + QStringLiteral(" \u2713")
                                                          : field + QStringLiteral(" %1").arg(answer->confidence, 0, 'f', 2);
        for (const QString &id : answer->wordIds) {
            const auto it = wordIndex.constFind(id);
            if (it == wordIndex.constEnd())
                continue;
            const int node = doc.words[size_t(*it)].node;
            if (node > 0 && (m.nodes.empty() || m.nodes.back() != node))
                m.nodes.push_back(node);
        }
        if (!m.nodes.empty())
            marks.push_back(m);
    }
    return marks;
}

QString fieldOverlayScript(const Document &rendered, const std::vector<FieldMark> &marks)
{
    // [[x, y, w, h, "#rrggbb", label or "", dashed], ...]
    QJsonArray boxes;
    for (const FieldMark &m : marks) {
        bool first = true;
        for (int node : m.nodes) {
            if (node <= 0 || node >= int(rendered.nodes.size()) || boxes.size() >= 5000)
                continue;
            const QRectF b = rendered.nodes[size_t(node)].box;
            if (b.isNull() || b.isEmpty())
                continue;
            boxes.append(QJsonArray{b.x(), b.y(), b.width(), b.height(), m.color.name(),
                                    first ? m.label : QString(), m.suggested});
            first = false;
        }
    }
    return QStringLiteral(
               "(function(boxes){var old=document.getElementById('__folio_fields');if(old)old.remove();"
               "if(!boxes.length)return 0;var layer=document.createElement('div');layer.id='__folio_fields';"
               "layer.style.cssText='position:absolute;left:0;top:0;pointer-events:none;z-index:2147483645';"
               "for(var i=0;i<boxes.length;i++){var b=boxes[i],d=document.createElement('div');"
               "d.className='__folio_field_box';"
               "d.style.cssText='position:absolute;box-sizing:border-box;left:'+(b[0]-2)+'px;top:'+(b[1]-2)+'px;width:'+(b[2]+4)+"
               "'px;height:'+(b[3]+4)+'px;border:2px '+(b[6]?'dashed ':'solid ')+b[4]+';background:'+b[4]+'22';"
               "if(b[5]){var t=document.createElement('span');t.textContent=b[5];"
               "t.style.cssText='position:absolute;left:-2px;top:-18px;font:11px sans-serif;color:#fff;padding:1px 4px;"
               "white-space:nowrap;background:'+b[4];d.appendChild(t);}"
               "layer.appendChild(d);}document.documentElement.appendChild(layer);return boxes.length;})(%1)")
        .arg(QString::fromUtf8(QJsonDocument(boxes).toJson(QJsonDocument::Compact)));
}

void drawFieldOverlay(WebPage *page, const Document &rendered, const std::vector<FieldMark> &marks)
{
    if (page)
        page->runJavaScript(fieldOverlayScript(rendered, marks), QWebEngineScript::ApplicationWorld);
}

QString fieldOverlayCountScript()
{
    return QStringLiteral("(function(){var l=document.getElementById('__folio_fields');"
                          "return l?l.getElementsByClassName('__folio_field_box').length:0;})()");
}

} // namespace folio

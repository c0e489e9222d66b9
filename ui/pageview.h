#pragma once
// PageView: the central page area for a Document — shows each page image (or a blank page of
// the right size) with its word boxes. Replaced piece by piece by the richer widgets/ canvases.
#include "document/document.h"

#include <QScrollArea>

class QLabel;

namespace folio {

class PageView : public QScrollArea
{
    Q_OBJECT
public:
    explicit PageView(QWidget *parent = nullptr);
    void setDocument(const Document &document, int page = 0);
    int pageCount() const { return int(m_document.pages.size()); }

private:
    Document m_document;
    QLabel *m_label = nullptr;
};

} // namespace folio

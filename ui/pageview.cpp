#include "ui/pageview.h"

#include <QImageReader>
#include <QLabel>
#include <QPainter>
#include <QPixmap>

namespace folio {

PageView::PageView(QWidget *parent)
    : QScrollArea(parent), m_label(new QLabel)
{
    m_label->setAlignment(Qt::AlignCenter);
    setWidget(m_label);
    setWidgetResizable(true);
    setBackgroundRole(QPalette::Dark);
}

void PageView::setDocument(const Document &document, int page)
{
    m_document = document;
    if (page < 0 || page >= int(document.pages.size())) {
        m_label->setText(tr("This document has no pages to show."));
        return;
    }
    const Page &p = document.pages[size_t(page)];
    QImage image;
    if (!p.imagePath.isEmpty()) {
        QImageReader reader(p.imagePath);
        reader.setAllocationLimit(512); // MB: refuse decompression bombs
        image = reader.read();
    }
    if (image.isNull()) {
        const QSize size = p.size.toSize().boundedTo(QSize(4000, 4000)).expandedTo(QSize(100, 100));
        image = QImage(size, QImage::Format_RGB32);
        image.fill(Qt::white);
    }
    image = image.convertToFormat(QImage::Format_RGB32);
    QPainter painter(&image);
    painter.setPen(QPen(QColor(0, 120, 215), 2));
    const double sx = p.size.width() > 0 ? image.width() / p.size.width() : 1;
    const double sy = p.size.height() > 0 ? image.height() / p.size.height() : 1;
    for (const Word &w : document.words)
        if (w.page == page)
            painter.drawRect(QRectF(w.box.x() * sx, w.box.y() * sy, w.box.width() * sx, w.box.height() * sy));
    painter.end();
    QPixmap pixmap = QPixmap::fromImage(image);
    if (pixmap.width() > 1200)
        pixmap = pixmap.scaledToWidth(1200, Qt::SmoothTransformation);
    m_label->setPixmap(pixmap);
}

} // namespace folio

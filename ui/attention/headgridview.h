#pragma once
// HeadGridView: the Head Grid's canvas — rows (layers, then bias terms) x columns (heads) of
// thumbnails, each labelled with its head; thumbnails not yet computed are drawn as grey
// placeholders and fill in as they arrive. A click on a thumbnail emits thumbnailClicked(row, column).
// Painting only; HeadGridPanel (headgridpanel.h) computes and orders.

#include <QImage>
#include <QStringList>
#include <QWidget>

#include <vector>

namespace folio {

class HeadGridView : public QWidget
{
    Q_OBJECT
public:
    explicit HeadGridView(QWidget *parent = nullptr);

    // Clears the thumbnails and lays out rows x columns cells of `side` pixels.
    void setGrid(const QStringList &rowNames, int columns, int side);
    // Column labels of one row (e.g. "h3"; the order the heads are drawn in).
    void setColumnLabels(int row, const QStringList &labels);
    void setThumbnail(int row, int column, const QImage &image);
    void clearThumbnails();

    int rowCount() const { return int(m_rows.size()); }
    int columnCount() const { return m_columns; }
    int thumbnailCount() const;
    QImage thumbnail(int row, int column) const;
    // The cell's rectangle in widget coordinates (for tests and tooltips).
    QRect cellRect(int row, int column) const;
    bool cellAt(const QPoint &pos, int *row, int *column) const;
    // Milliseconds from setGrid() to the first paint that showed a thumbnail (-1: not yet).
    qint64 firstPaintMs() const { return m_firstPaintMs; }

    QSize sizeHint() const override;

Q_SIGNALS:
    void thumbnailClicked(int row, int column);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;

private:
    struct Row
    {
        QString name;
        QStringList labels;
        std::vector<QImage> thumbs;
    };
    std::vector<Row> m_rows;
    int m_columns = 0;
    int m_side = 64;
    qint64 m_gridStartMs = 0;
    qint64 m_firstPaintMs = -1;
};

} // namespace folio

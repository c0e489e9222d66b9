#pragma once
// ImagePatchCanvas: the page image with a side x side grid of cells over it, cells coloured by
// value, the word boxes outlined (the selected one in red, others tinted by value). Clicking a
// cell emits cellClicked(row-major index). Painting only (ImagePatchPanel decides what to show).

#include "document/document.h"

#include <QImage>
#include <QWidget>

#include <vector>

namespace folio {

class ImagePatchCanvas : public QWidget
{
    Q_OBJECT
public:
    explicit ImagePatchCanvas(QWidget *parent = nullptr);

    // The page (image loaded from its imagePath; a blank page of its size when there is none) and
    // the words on it (0-1000 boxes).
    void setPage(const Document &document, int page);
    void setGridSide(int side); // 0: no grid
    void setCellValues(const std::vector<float> &values); // side * side, empty: none
    void setWordValues(const std::vector<float> &values); // per Document word, empty: none
    void setSelectedWord(int word);
    void setSelectedCell(int cell);
    QRect cellRect(int cell) const;
    QRectF pageRect() const;
    bool hasPageImage() const { return !m_image.isNull(); }

    QSize sizeHint() const override { return QSize(360, 460); }

Q_SIGNALS:
    void cellClicked(int cell);

protected:
    void paintEvent(QPaintEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;

private:
    QImage m_image;
    QSizeF m_pageSize = QSizeF(1000, 1000);
    std::vector<QRectF> m_words; // 0-1000 boxes of the page's words, indexed by Document word (null elsewhere)
    int m_side = 0;
    std::vector<float> m_cells;
    std::vector<float> m_wordValues;
    int m_word = -1;
    int m_cell = -1;
};

} // namespace folio

#include "ui/attention/imagepatchpanel.h"

#include "attention/attentionviewmodel.h"
#include "attention/heatmaprender.h"
#include "ui/attention/imagepatchcanvas.h"

#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>

namespace folio {

ImagePatchPanel::ImagePatchPanel(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("imagePatchPanel"));
    m_canvas = new ImagePatchCanvas(this);
    m_canvas->setAccessibleName(tr("Image patch attention"));
    m_canvas->setAccessibleDescription(tr("The page image with the attention of the chosen patch over it"));
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_canvas, 1);
    layout->addWidget(m_status);
    connect(m_canvas, &ImagePatchCanvas::cellClicked, this, [this](int cell) { selectPatch(cell); });
    m_status->setText(tr("Run Model > Show Attention with a checkpoint that has an image branch (LayoutLMv3, LayoutLMv2), "
                         "then click a word."));
}

ImagePatchPanel::~ImagePatchPanel() = default;

void ImagePatchPanel::setViewModel(AttentionViewModel *model)
{
    if (m_model)
        disconnect(m_model, nullptr, this, nullptr);
    m_model = model;
    if (model) {
        connect(model, &AttentionViewModel::traceChanged, this, &ImagePatchPanel::takeTrace);
        connect(model, &AttentionViewModel::matrixChanged, this, &ImagePatchPanel::refreshFromModel);
    }
    takeTrace();
}

void ImagePatchPanel::takeTrace()
{
    m_grid = ImagePatchGrid();
    m_word = m_patch = -1;
    m_patchValues.clear();
    m_wordValues.clear();
    m_document = m_model ? m_model->document() : Document();
    m_canvas->setGridSide(0);
    m_canvas->setCellValues({});
    m_canvas->setWordValues({});
    m_canvas->setSelectedWord(-1);
    m_canvas->setSelectedCell(-1);
    if (!m_model || !m_model->hasTrace()) {
        m_canvas->setPage(m_document, 0);
        return;
    }
    const AttentionTrace &t = m_model->trace();
    QString why;
    for (int w = 0; w < int(t.windows.size()); ++w)
        if (imagePatchGrid(t, w, &m_grid, &why))
            break;
    if (m_grid.side > 0) {
        m_canvas->setPage(m_document, pageOfWindow(m_grid.window));
        m_canvas->setGridSide(m_grid.side);
        m_status->setText(tr("%1: %2 × %3 image patches%4 in window %5 of %6. Click a word for its attention to the image, a "
                             "cell for the image's attention to the words.")
                              .arg(t.modelType).arg(m_grid.side).arg(m_grid.side)
                              .arg(m_grid.visualCls ? tr(" after a visual [CLS]") : QString())
                              .arg(m_grid.window + 1).arg(t.windows.size()));
    } else {
        m_canvas->setPage(m_document, 0);
        m_status->setText(why);
    }
}

int ImagePatchPanel::pageOfWindow(int window) const
{
    if (!m_model || window < 0 || window >= int(m_model->trace().windows.size()))
        return 0;
    const AttentionTrace &t = m_model->trace();
    const AttentionWindow &w = t.windows[std::size_t(window)];
    for (int k = 0; k < w.length; ++k) {
        const int g = w.firstToken + k;
        const int word = g < int(t.tokenWord.size()) ? t.tokenWord[std::size_t(g)] : -1;
        if (word >= 0 && word < int(m_document.words.size()))
            return m_document.words[std::size_t(word)].page;
    }
    return 0;
}

bool ImagePatchPanel::selectWord(int wordIndex)
{
    if (!m_model || !m_model->hasTrace()) {
        say(tr("No attention trace: run Model > Show Attention first."));
        return false;
    }
    const AttentionTrace &t = m_model->trace();
    QString why;
    if (m_grid.side <= 0) {
        imagePatchGrid(t, 0, nullptr, &why);
        say(why);
        return false;
    }
    const auto it = std::find(t.tokenWord.begin(), t.tokenWord.end(), wordIndex);
    int token = -1, window = -1;
    // The word's first token in a window with image tokens.
    for (auto i = it; i != t.tokenWord.end(); i = std::find(i + 1, t.tokenWord.end(), wordIndex)) {
        window = imagePatchWindowOfToken(t, int(i - t.tokenWord.begin()));
        if (window >= 0) {
            token = int(i - t.tokenWord.begin());
            break;
        }
    }
    if (wordIndex < 0 || token < 0) {
        say(tr("Word %1: the model saw no token of it in a window with image tokens.").arg(wordIndex));
        return false;
    }
    ImagePatchGrid grid;
    if (!imagePatchGrid(t, window, &grid, &why)) {
        say(why);
        return false;
    }
    if (grid.window != m_grid.window)
        m_canvas->setPage(m_document, pageOfWindow(grid.window));
    m_grid = grid;
    m_word = wordIndex;
    m_patch = -1;
    m_patchValues = attentionToPatches(t, m_grid, token, m_model->layer(), m_model->head());
    m_wordValues.clear();
    m_canvas->setGridSide(m_grid.side);
    m_canvas->setCellValues(m_patchValues);
    m_canvas->setWordValues({});
    m_canvas->setSelectedCell(-1);
    m_canvas->setSelectedWord(wordIndex);
    float total = 0;
    int best = 0;
    for (int p = 0; p < int(m_patchValues.size()); ++p) {
        total += m_patchValues[std::size_t(p)];
        if (m_patchValues[std::size_t(p)] > m_patchValues[std::size_t(best)])
            best = p;
    }
    const QString text = wordIndex < int(m_document.words.size()) ? m_document.words[std::size_t(wordIndex)].text : QString();
    const auto name = [](int v) { return v < 0 ? tr("avg") : QString::number(v); };
    m_status->setText(tr("Word %1 '%2' → image, layer %3, head %4: %5 of its attention on the %6 patches; most on row %7, column %8.")
                          .arg(wordIndex).arg(text).arg(name(m_model->layer()), name(m_model->head()))
                          .arg(QString::number(total * 100.0, 'f', 1) + QLatin1Char('%')).arg(m_grid.patchCount())
                          .arg(best / m_grid.side + 1).arg(best % m_grid.side + 1));
    if (!m_wordColors.isEmpty()) {
        m_wordColors.clear();
        Q_EMIT wordColorsChanged(m_wordColors);
    }
    return true;
}

bool ImagePatchPanel::selectPatch(int patch)
{
    if (!m_model || !m_model->hasTrace() || m_grid.side <= 0) {
        QString why = tr("No attention trace: run Model > Show Attention first.");
        if (m_model && m_model->hasTrace())
            imagePatchGrid(m_model->trace(), 0, nullptr, &why);
        say(why);
        return false;
    }
    if (patch < 0 || patch >= m_grid.patchCount()) {
        say(tr("Image cell %1: the grid has %2 cells.").arg(patch).arg(m_grid.patchCount()));
        return false;
    }
    const AttentionTrace &t = m_model->trace();
    m_patch = patch;
    m_wordValues = patchAttentionToWords(t, m_grid, patch, m_model->layer(), m_model->head(), int(m_document.words.size()));
    m_canvas->setCellValues({}); // the cell's attention to the words is shown alone
    m_canvas->setWordValues(m_wordValues);
    m_canvas->setSelectedCell(patch);
    HeatmapScale scale;
    scale.lo = 0;
    scale.hi = 1e-6f;
    for (float v : m_wordValues)
        scale.hi = std::max(scale.hi, v);
    m_wordColors.clear();
    int best = -1;
    for (int w = 0; w < int(m_wordValues.size()); ++w)
        if (m_wordValues[std::size_t(w)] > 0) {
            m_wordColors.insert(w, scale.color(m_wordValues[std::size_t(w)]));
            if (best < 0 || m_wordValues[std::size_t(w)] > m_wordValues[std::size_t(best)])
                best = w;
        }
    const auto name = [](int v) { return v < 0 ? tr("avg") : QString::number(v); };
    m_status->setText(tr("Image cell row %1, column %2 → words, layer %3, head %4: %5 words attended%6.")
                          .arg(patch / m_grid.side + 1).arg(patch % m_grid.side + 1).arg(name(m_model->layer()), name(m_model->head()))
                          .arg(m_wordColors.size())
                          .arg(best >= 0 && best < int(m_document.words.size())
                                   ? tr(", most '%1' (%2)").arg(m_document.words[std::size_t(best)].text).arg(m_wordValues[std::size_t(best)], 0, 'f', 3)
                                   : QString()));
    Q_EMIT wordColorsChanged(m_wordColors);
    return true;
}

void ImagePatchPanel::refreshFromModel()
{
    // The Attention dock's layer / head changed: redraw what is selected.
    if (m_grid.side <= 0)
        return;
    if (m_patch >= 0)
        selectPatch(m_patch);
    else if (m_word >= 0)
        selectWord(m_word);
}

QRect ImagePatchPanel::cellRect(int patch) const { return m_canvas->cellRect(patch); }

void ImagePatchPanel::say(const QString &text)
{
    m_lastMessage = text;
    Q_EMIT message(text);
}

} // namespace folio

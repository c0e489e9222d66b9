#pragma once
// File > OCR Language: which Tesseract languages scans and PDFs are read in.
//
// "Automatic" (the default) reads a page in English and, when its text reads German and the
// German data is installed, again in German (pipeline/ocrlanguage.h). The other entries are the
// languages installed for Tesseract (English + German when both are), so a language that is not
// installed is never offered. The choice is kept per user (QSettings "ocr/languages") and applies
// to documents opened afterwards; a document already open keeps its words.

#include <QMenu>
#include <QString>

class QActionGroup;

namespace folio {

class OcrLanguageMenu : public QMenu
{
    Q_OBJECT
public:
    explicit OcrLanguageMenu(QWidget *parent = nullptr);

    QString languages() const { return m_languages; }
    // Checks the entry for `languages` (falls back to "auto" for one that is not offered) and
    // stores the choice.
    void setLanguages(const QString &languages);

Q_SIGNALS:
    void languagesChanged(const QString &languages);

private:
    void addEntry(const QString &languages, const QString &text);

    QActionGroup *m_group = nullptr;
    QString m_languages;
};

} // namespace folio

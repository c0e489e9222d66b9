// folio-cli vocab: trains a SentencePiece vocabulary on the words of a corpus of documents
// (FUNSD JSON, Folio document JSON, HTML, scans / PDFs, plain text: one word per whitespace-separated token).
#include "app/cli/commands.h"
#include "inference/tokenizers/tokenizer.h"
#include "pipeline/documentsource.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <fstream>
#include <iostream>

namespace folio::cli {

void registerVocabCommand(CLI::App &app)
{
    auto *cmd = app.add_subcommand("vocab", "Train a SentencePiece vocabulary on the words of documents");
    struct Opts
    {
        std::vector<std::string> inputs;
        std::string out, type = "unigram";
        int size = 4000;
        double coverage = 1.0;
    };
    auto o = std::make_shared<Opts>();
    cmd->add_option("inputs", o->inputs, "Documents (anything predict opens, or .txt) or folders (their JSON, HTML and .txt files)")->required();
    cmd->add_option("--out", o->out, "Output prefix: writes <out>.model and <out>.vocab")->required();
    cmd->add_option("--size", o->size, "Vocabulary size");
    cmd->add_option("--type", o->type, "unigram | bpe");
    cmd->add_option("--character-coverage", o->coverage, "SentencePiece character coverage");
    cmd->callback([o]() {
        QStringList files;
        for (const std::string &in : o->inputs) {
            const QFileInfo fi(QString::fromStdString(in));
            if (fi.isDir()) {
                QDir d(fi.absoluteFilePath());
                for (const QString &n : d.entryList({QStringLiteral("*.json"), QStringLiteral("*.html"), QStringLiteral("*.htm"),
                                                     QStringLiteral("*.html.gz"), QStringLiteral("*.htm.gz"), QStringLiteral("*.txt")},
                                                    QDir::Files, QDir::Name))
                    files << d.absoluteFilePath(n);
            } else if (fi.isFile()) {
                files << fi.absoluteFilePath();
            } else {
                throw CliError(in + ": no such file or folder");
            }
        }
        QTemporaryDir tmp;
        const std::string corpus = tmp.filePath(QStringLiteral("words.txt")).toStdString();
        long words = 0;
        {
            std::ofstream out(corpus);
            for (const QString &f : files) {
                if (f.endsWith(QLatin1String(".txt"), Qt::CaseInsensitive)) {
                    QFile in(f);
                    if (!in.open(QIODevice::ReadOnly))
                        throw CliError(f.toStdString() + ": cannot open");
                    for (const QString &w : QString::fromUtf8(in.readAll()).split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts)) {
                        out << w.toStdString() << '\n';
                        ++words;
                    }
                    continue;
                }
                const pipeline::LoadedDocument loaded = pipeline::loadDocumentFile(f);
                if (!loaded.ok)
                    throw CliError(loaded.error.toStdString());
                for (const Word &w : loaded.document.words)
                    if (!w.text.trimmed().isEmpty()) {
                        out << w.text.toStdString() << '\n';
                        ++words;
                    }
            }
        }
        if (words == 0)
            throw CliError("vocab: the inputs hold no words");
        try {
            inference::trainSentencePiece(corpus, o->out, o->size, o->type, o->coverage);
        } catch (const std::exception &e) {
            throw CliError(e.what());
        }
        std::cout << nlohmann::json{{"model", o->out + ".model"}, {"vocab_size", o->size}, {"type", o->type},
                                    {"documents", files.size()}, {"words", words}}.dump(2)
                  << std::endl;
    });
}

} // namespace folio::cli

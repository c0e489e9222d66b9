#include "renderingchoice.h"

#include <QDir>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFunctions>

namespace folio {

namespace {

// The OpenGL renderer's name ("llvmpipe (LLVM 15.0.6, 256 bits)", "Mesa Intel(R) ..."), empty when
// no context can be made.
QString openGlRenderer()
{
    QOpenGLContext context;
    if (!context.create())
        return {};
    QOffscreenSurface surface;
    surface.setFormat(context.format());
    surface.create();
    if (!surface.isValid() || !context.makeCurrent(&surface))
        return {};
    const auto *name = reinterpret_cast<const char *>(context.functions()->glGetString(GL_RENDERER));
    const QString renderer = name ? QString::fromLatin1(name) : QString();
    context.doneCurrent();
    return renderer;
}

bool isSoftwareRenderer(const QString &renderer)
{
    return renderer.contains(QLatin1String("llvmpipe"), Qt::CaseInsensitive)
        || renderer.contains(QLatin1String("softpipe"), Qt::CaseInsensitive)
        || renderer.contains(QLatin1String("swrast"), Qt::CaseInsensitive)
        || renderer.contains(QLatin1String("software"), Qt::CaseInsensitive);
}

} // namespace

RenderingChoice chooseRendering(const QString &requested)
{
    const QString quick = qEnvironmentVariable("QT_QUICK_BACKEND");
    if (!quick.isEmpty())
        return {quick == QLatin1String("software"), QStringLiteral("QT_QUICK_BACKEND=%1 (set by the user)").arg(quick)};
    const QString want = requested.trimmed().toLower();
    if (want == QLatin1String("software"))
        return {true, QStringLiteral("software (FOLIO_RENDERING=software)")};
    if (want == QLatin1String("gpu"))
        return {false, QStringLiteral("OpenGL (FOLIO_RENDERING=gpu)")};
    if (qEnvironmentVariableIntValue("LIBGL_ALWAYS_SOFTWARE") == 1)
        return {true, QStringLiteral("software (LIBGL_ALWAYS_SOFTWARE=1)")};
#if defined(Q_OS_LINUX)
    // No GPU device at all: Mesa can only rasterise on the CPU (checked without making a context).
    if (QDir(QStringLiteral("/dev/dri")).entryList({QStringLiteral("renderD*"), QStringLiteral("card*")}, QDir::System).isEmpty())
        return {true, QStringLiteral("software (no GPU device in /dev/dri)")};
#endif
    const QString renderer = openGlRenderer();
    if (renderer.isEmpty())
        return {true, QStringLiteral("software (no OpenGL context)")};
    if (isSoftwareRenderer(renderer))
        return {true, QStringLiteral("software (OpenGL is %1)").arg(renderer)};
    return {false, QStringLiteral("OpenGL (%1)").arg(renderer)};
}

void applyRendering(const RenderingChoice &choice)
{
    if (choice.software && qEnvironmentVariableIsEmpty("QT_QUICK_BACKEND"))
        qputenv("QT_QUICK_BACKEND", "software");
}

} // namespace folio

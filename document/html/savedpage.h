#pragma once
// "Web Page, complete" as browsers save it: X.html beside a folder X_files/ holding its style
// sheets, images and scripts. Finds the page a folder (or its _files folder) stands for.
//
//   QString why;
//   const QString html = folio::savedWebPageFile("/home/me/Downloads/shop", &why);
//   if (html.isEmpty()) fail(why); // "shop: no saved web page in this folder (X.html beside X_files/)"
//
// A folder is resolved to the one .html/.htm/.xhtml file in it that has a "<name>_files" (or
// "<name>-files", "<name>.files") folder beside it; failing that, to its only HTML file. A
// "<name>_files" folder itself resolves to "<name>.html" beside it. Any other path comes back as is.
// Engine code, never throws.

#include <QString>

namespace folio {

QString savedWebPageFile(const QString &path, QString *error = nullptr);
// The resources folder of a saved page ("X_files" beside X.html), "" when there is none.
QString savedWebPageResources(const QString &htmlPath);

} // namespace folio

# Installation and the Debian package (issue 33).
#
#   cmake --install build --prefix /opt/folio     # or: scripts/package.sh -> build/folio_<version>_amd64.deb
#
# Layout (what the programs look for; pipeline/shippedmodels.h is the one resolver of models):
#   bin/folio, bin/folio-cli                          the programs
#   bin/folio-cli-front, folio-cli-engine             what folio-cli runs (app/cli/clirun.h)
#   bin/folio-ocr-worker, folio-websnapshot,          helpers started by the programs from their own folder
#       folio-spm-train
#   share/folio/models/<name>/                        shipped models (<exe>/../share/folio/models)
#   share/folio/samples/                              the bundled sample documents
#   share/applications, share/icons, share/mime       desktop entry, icon, the .folio MIME type
#   share/metainfo/io.folio.Folio.metainfo.xml        AppStream metainfo (software centres, appstreamcli)
#   share/doc/folio/                                  README, licences of bundled data and models
include(GNUInstallDirs)

set(FOLIO_INSTALLED_PROGRAMS folio-cli folio-cli-front folio-cli-engine folio-ocr-worker folio-spm-train)
if(FOLIO_BUILD_GUI)
  list(APPEND FOLIO_INSTALLED_PROGRAMS folio folio-websnapshot)
endif()
install(TARGETS ${FOLIO_INSTALLED_PROGRAMS} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/models/ DESTINATION ${CMAKE_INSTALL_DATADIR}/folio/models)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/samples/ DESTINATION ${CMAKE_INSTALL_DATADIR}/folio/samples)
install(FILES ${PROJECT_SOURCE_DIR}/resources/desktop/io.folio.Folio.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${PROJECT_SOURCE_DIR}/resources/desktop/io.folio.Folio.svg
        DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
install(FILES ${PROJECT_SOURCE_DIR}/resources/desktop/folio-mime.xml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/mime/packages RENAME folio.xml)
# AppStream metainfo (issue 50): its screenshots are resources/desktop/screenshots/*.png, published at
# FOLIO_SCREENSHOT_BASE_URL (the .invalid default, RFC 2606, stands until the project has a public
# home: packagers set it). tst_metainfo validates the generated file.
set(FOLIO_SCREENSHOT_BASE_URL "https://folio.invalid/screenshots" CACHE STRING
    "Web folder where resources/desktop/screenshots/*.png are published (AppStream metainfo)")
configure_file(${PROJECT_SOURCE_DIR}/resources/desktop/io.folio.Folio.metainfo.xml.in
               ${PROJECT_BINARY_DIR}/resources/io.folio.Folio.metainfo.xml @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/resources/io.folio.Folio.metainfo.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/resources/3rdparty/ATTRIBUTION.md
        DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/folio)

# ---- Debian package (CPack) -------------------------------------------------
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME folio)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "Folio")
set(CPACK_PACKAGE_CONTACT "Folio maintainers <folio@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Structure-aware document extraction studio (scans, PDFs, web pages)")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # folio_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION science)
# Shared libraries from dpkg-shlibdeps (Qt, LibTorch, Tesseract, Leptonica, Poppler, SentencePiece,
# libxml2); what the programs load at run time without linking it is declared by hand: the OCR
# language data, the threaded OpenBLAS (LibTorch's BLAS falls back to the ~30x slower reference
# one without it), Qt's SQLite / PostgreSQL drivers, platform and image plugins, and the
# QtWebEngine helper process.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "tesseract-ocr-eng, libopenblas0-pthread, libqt6sql6-sqlite, libqt6svg6, qt6-qpa-plugins, qt6-image-formats-plugins, libqt6webenginecore6-bin, fonts-dejavu-core")
# qt6-translations-l10n: Qt's own strings (dialog buttons, file dialogs) in the interface language;
# Folio's catalogues are in the program (:/i18n, ui/i18n/CMakeLists.txt).
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libqt6sql6-psql, tesseract-ocr-deu, qt6-translations-l10n")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)

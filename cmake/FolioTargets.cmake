# Helpers shared by every folder's CMakeLists.txt.

# Warnings for our own code only (never through CMAKE_CXX_FLAGS).
function(folio_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wno-unused-parameter)
endfunction()

# Common settings for a Folio library or executable.
function(folio_configure_target target)
  folio_set_warnings(${target})
  # Qt's `slots`/`signals` keywords collide with torch headers: use Q_SLOTS / Q_SIGNALS / Q_EMIT.
  target_compile_definitions(${target} PRIVATE QT_NO_KEYWORDS)
  target_include_directories(${target} PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>)
endfunction()

# The tests' data helper (tests/common/testdata.h: FOLIO_SHARED_DIR / FOLIO_PARITY_DIR at run time,
# FOLIO_REQUIRE_DATA, FOLIO_TEST_MAIN), built once and linked into every test.
function(folio_add_test_support)
  if(TARGET folio_testdata)
    return()
  endif()
  add_library(folio_testdata STATIC ${PROJECT_SOURCE_DIR}/tests/common/testdata.cpp ${PROJECT_SOURCE_DIR}/tests/common/testdata.h)
  folio_configure_target(folio_testdata)
  target_link_libraries(folio_testdata PUBLIC Qt6::Test Qt6::Core)
  target_compile_definitions(folio_testdata PRIVATE FOLIO_SHARED_DIR="${PROJECT_SOURCE_DIR}/../shared")
endfunction()

# folio_add_test(NAME tst_x SOURCES a.cpp LIBS lib... LABELS unit [TIMEOUT s] [ENV K=V...])
# One Qt Test executable per feature; registered with CTest under its labels. A test that ran
# nothing but skips exits with 77 (FOLIO_TEST_MAIN): CTest reports it as Skipped, not Passed.
# ENVIRONMENT holds only what an outside value need not override: FOLIO_SHARED_DIR,
# FOLIO_PARITY_DIR and CI set when ctest is called reach the tests (defaults live in testdata.cpp).
function(folio_add_test)
  cmake_parse_arguments(T "" "NAME;TIMEOUT" "SOURCES;LIBS;LABELS;ENV" ${ARGN})
  folio_add_test_support()
  qt_add_executable(${T_NAME} ${T_SOURCES})
  folio_configure_target(${T_NAME})
  target_link_libraries(${T_NAME} PRIVATE Qt6::Test folio_testdata ${T_LIBS})
  target_compile_definitions(${T_NAME} PRIVATE
    FOLIO_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    FOLIO_SHARED_DIR="${PROJECT_SOURCE_DIR}/../shared"
    FOLIO_BINARY_DIR="${PROJECT_BINARY_DIR}")
  add_test(NAME ${T_NAME} COMMAND ${T_NAME})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 600)
  endif()
  set_tests_properties(${T_NAME} PROPERTIES LABELS "${T_LABELS}" TIMEOUT ${T_TIMEOUT} SKIP_RETURN_CODE 77
    ENVIRONMENT "QT_QPA_PLATFORM=offscreen;OMP_WAIT_POLICY=PASSIVE;QTWEBENGINE_DISABLE_SANDBOX=1;${T_ENV}")
endfunction()

# Refuses Qt Test's plain main macros (QTEST_MAIN, QTEST_GUILESS_MAIN, QTEST_APPLESS_MAIN) in a test
# source under tests/ (outside tests/common). Their main() exits 0 when every case skipped, so CTest
# would count a test that checked nothing as Passed; FOLIO_TEST_MAIN / FOLIO_TEST_GUILESS_MAIN
# (tests/common/testdata.h) exit with 77 then, which folio_add_test's SKIP_RETURN_CODE reports as
# Skipped.
# Two uses:
#  - configure time: tests/CMakeLists.txt includes this file and calls folio_refuse_plain_qtest_main(),
#    so cmake (and with it every build that re-runs cmake after a CMakeLists edit) stops on one;
#  - CTest (tst_no_plain_qtest_main): cmake -DROOT=<tests folder> -P noplainqtestmain.cmake, which
#    also catches a source edited after the last configure.

# Sets `out` to the files under `root` (relative paths) that use a plain Qt Test main macro.
function(folio_find_plain_qtest_main out root)
  file(GLOB_RECURSE sources "${root}/*.cpp" "${root}/*.h")
  set(offenders "")
  foreach(f IN LISTS sources)
    file(RELATIVE_PATH rel "${root}" "${f}")
    if(rel MATCHES "^common/")
      continue()
    endif()
    file(STRINGS "${f}" hits REGEX "(^|[^A-Za-z0-9_])QTEST_(GUILESS_|APPLESS_)?MAIN[ \t]*\\(")
    if(hits)
      list(APPEND offenders "${rel}")
    endif()
  endforeach()
  list(LENGTH sources count)
  set(${out} "${offenders}" PARENT_SCOPE)
  set(${out}_COUNT ${count} PARENT_SCOPE)
endfunction()

# FATAL_ERROR naming every offender and the fix; a STATUS line otherwise.
function(folio_refuse_plain_qtest_main root)
  folio_find_plain_qtest_main(offenders "${root}")
  if(offenders)
    string(REPLACE ";" ", " listed "${offenders}")
    message(FATAL_ERROR "plain Qt Test main macro under tests/ (it reports a test whose cases all skipped as "
      "Passed): ${listed}. Write FOLIO_TEST_MAIN(Class) for QTEST_MAIN or FOLIO_TEST_GUILESS_MAIN(Class) for "
      "QTEST_GUILESS_MAIN / QTEST_APPLESS_MAIN, and #include \"tests/common/testdata.h\".")
  endif()
  message(STATUS "no plain QTEST_*MAIN in ${offenders_COUNT} sources under tests/")
endfunction()

if(CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE)
  if(NOT ROOT)
    message(FATAL_ERROR "usage: cmake -DROOT=<tests folder> -P noplainqtestmain.cmake")
  endif()
  folio_refuse_plain_qtest_main("${ROOT}")
endif()

# tst_no_raw_qskip: fails when a test source under tests/ (outside tests/common) calls QSKIP
# directly. Qt Test exits 0 after a skip, so CTest would count a test that could not run as
# Passed; skips go through tests/common/testdata.h (FOLIO_DATA_MISSING, FOLIO_REQUIRE_DATA,
# FOLIO_SKIP_CASE), which report missing data as Skipped and fail it under CI=true.
# Usage: cmake -DROOT=<tests folder> -P norawqskip.cmake
file(GLOB_RECURSE sources "${ROOT}/*.cpp" "${ROOT}/*.h")
set(offenders "")
foreach(f IN LISTS sources)
  file(RELATIVE_PATH rel "${ROOT}" "${f}")
  if(rel MATCHES "^common/")
    continue()
  endif()
  file(STRINGS "${f}" hits REGEX "QSKIP[ \t]*\\(")
  if(hits)
    list(APPEND offenders "${rel}")
  endif()
endforeach()
list(LENGTH sources count)
if(offenders)
  message(FATAL_ERROR "raw QSKIP outside tests/common (use FOLIO_DATA_MISSING / FOLIO_SKIP_CASE): ${offenders}")
endif()
message(STATUS "no raw QSKIP in ${count} test sources")

# tst_inference_layering: keeps inference/ a layer of its own (issue 33).
#  - no file under inference/ includes a header of a higher folder (document/, pipeline/, ui/, app/,
#    attention/, ocr/, widgets/): Document -> model adapters live in pipeline/modelinputs/;
#  - every .h/.cpp under inference/ is named in inference/CMakeLists.txt (it belongs to
#    folio_inference, or to the folio-spm-train helper built there);
#  - no CMakeLists.txt outside inference/ compiles an inference/ source into another target
#    (link folio_inference instead). Exempt: tests/fuzz, whose libFuzzer targets (-DFOLIO_FUZZ=ON)
#    compile the torch-free readers again with the fuzzer's instrumentation;
#  - nothing under inference/ throws a std:: exception: InferenceError (errors.h) is the one type.
# Usage: cmake -DROOT=<source folder> -P inferencelayering.cmake
set(problems "")
file(GLOB_RECURSE sources RELATIVE "${ROOT}/inference" "${ROOT}/inference/*.h" "${ROOT}/inference/*.cpp")
file(READ "${ROOT}/inference/CMakeLists.txt" listed)
foreach(rel IN LISTS sources)
  file(STRINGS "${ROOT}/inference/${rel}" hits REGEX "^[ \t]*#[ \t]*include[ \t]*\"(document|pipeline|ui|app|attention|ocr|widgets)/")
  foreach(h IN LISTS hits)
    string(STRIP "${h}" h)
    list(APPEND problems "inference/${rel} includes a higher layer: ${h}")
  endforeach()
  file(STRINGS "${ROOT}/inference/${rel}" throws REGEX "^[^/]*throw[ \t]+std::")
  foreach(t IN LISTS throws)
    string(STRIP "${t}" t)
    list(APPEND problems "inference/${rel} throws a std:: exception (throw InferenceError, inference/errors.h): ${t}")
  endforeach()
  string(FIND "${listed}" "${rel}" at)
  if(at EQUAL -1)
    list(APPEND problems "inference/${rel} is not in inference/CMakeLists.txt (every file under inference/ belongs to folio_inference)")
  endif()
endforeach()
file(GLOB_RECURSE lists RELATIVE "${ROOT}" "${ROOT}/CMakeLists.txt" "${ROOT}/*/CMakeLists.txt" "${ROOT}/*.cmake")
foreach(rel IN LISTS lists)
  if(rel MATCHES "^(inference|tests/fuzz|build[^/]*|third_party)/")
    continue()
  endif()
  file(STRINGS "${ROOT}/${rel}" hits REGEX "inference/[A-Za-z0-9_/]+\\.cpp")
  foreach(h IN LISTS hits)
    string(STRIP "${h}" h)
    list(APPEND problems "${rel} compiles an inference/ source into another target (link folio_inference): ${h}")
  endforeach()
endforeach()
list(LENGTH sources count)
if(problems)
  string(REPLACE ";" "\n  " text "${problems}")
  message(FATAL_ERROR "inference/ layering:\n  ${text}")
endif()
message(STATUS "inference/: ${count} files, all in folio_inference, none includes a higher layer")

# Regenerate src/shaders/stubs_gen.c from the assembly sources with LLVM 22.
#   cmake -DLLVM_BIN=$KFDSIG_LLVM22_BIN (the CMake cache setting, /usr/lib/llvm-22/bin by default) -DSRC_DIR=src/shaders
#         -DOUT=src/shaders/stubs_gen.c -DWORK=/tmp/dir -P gen_stubs.cmake
# (the kfdsig-shaders build target runs exactly this). For every target the
# source is assembled with llvm-mc and linked with ld.lld; the code objects of
# one family must differ only in the ELF e_flags word and the processor name
# of amdhsa.target, so the file stores each family once (HEAD/TAIL macros)
# and each target's e_flags and name.
cmake_minimum_required(VERSION 3.25)
foreach(v LLVM_BIN SRC_DIR OUT WORK)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "gen_stubs.cmake: -D${v}=... is required")
  endif()
endforeach()
include(${SRC_DIR}/stubs.cmake)

set(MC ${LLVM_BIN}/llvm-mc)
set(LLD ${LLVM_BIN}/ld.lld)
set(READELF ${LLVM_BIN}/llvm-readelf)
execute_process(COMMAND ${MC} --version OUTPUT_VARIABLE _ver RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0 OR NOT _ver MATCHES "LLVM version (22\\.[0-9.]+)")
  message(FATAL_ERROR "gen_stubs.cmake: ${MC} is not LLVM 22")
endif()
set(LLVM_VERSION ${CMAKE_MATCH_1})
file(MAKE_DIRECTORY ${WORK})

# The sources name their processor KFDSIG_PROCESSOR in the amdhsa.target
# metadata (the target id LLVM 22 emits, "amdgcn-amd-amdhsa--gfx90a"): put
# the -mcpu there, then assemble and link.
function(assemble src mcpu out)
  file(READ ${src} text)
  string(REPLACE "KFDSIG_PROCESSOR" "${mcpu}" text "${text}")
  file(WRITE ${out}.s "${text}")
  execute_process(COMMAND ${MC} -triple=amdgcn-amd-amdhsa -mcpu=${mcpu} -filetype=obj
                          ${out}.s -o ${out}.o
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "llvm-mc -mcpu=${mcpu} ${src}: ${err}")
  endif()
  execute_process(COMMAND ${LLD} -shared ${out}.o -o ${out}
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "ld.lld ${out}: ${err}")
  endif()
endfunction()

# hex string of 8 hex digits, little-endian bytes -> decimal
function(le32 hex off outvar)
  math(EXPR o "${off} * 2")
  string(SUBSTRING "${hex}" ${o} 8 h)
  string(SUBSTRING "${h}" 6 2 b3)
  string(SUBSTRING "${h}" 4 2 b2)
  string(SUBSTRING "${h}" 2 2 b1)
  string(SUBSTRING "${h}" 0 2 b0)
  math(EXPR v "0x${b3}${b2}${b1}${b0}")
  set(${outvar} ${v} PARENT_SCOPE)
endfunction()

# "0x12, 0x34, ..." lines of 12 bytes (CMake regex has no {n})
function(c_bytes hex outvar)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1, " b "${hex}")
  string(REGEX REPLACE "(0x.., 0x.., 0x.., 0x.., 0x.., 0x.., 0x.., 0x.., 0x.., 0x.., 0x.., 0x.., )" "\\1\\\\\n\t" b "${b}")
  string(REGEX REPLACE ", $" "" b "${b}")
  string(REGEX REPLACE ", \\\\\n\t$" "" b "${b}")
  set(${outvar} "${b}" PARENT_SCOPE)
endfunction()

set(families "")
set(targets "")
set(arrays "")
set(sources "")
set(fidx 0)
foreach(entry IN LISTS KFDSIG_STUB_FAMILIES)
  string(REPLACE ":" ";" parts "${entry}")
  list(GET parts 0 fam)
  list(GET parts 1 members)
  string(REPLACE "," ";" members "${members}")
  set(src ${SRC_DIR}/${fam}.s)

  # Representative: the first member.
  list(GET members 0 rep)
  assemble(${src} ${rep} ${WORK}/${fam}.co)
  file(READ ${WORK}/${fam}.co hex HEX)
  string(LENGTH "${hex}" hexlen)
  math(EXPR size "${hexlen} / 2")

  execute_process(COMMAND ${READELF} -S -s --wide ${WORK}/${fam}.co OUTPUT_VARIABLE elfinfo)
  if(NOT elfinfo MATCHES " \\.text +PROGBITS +([0-9a-f]+) ([0-9a-f]+) ([0-9a-f]+)")
    message(FATAL_ERROR "${fam}: no .text section")
  endif()
  math(EXPR text_addr "0x${CMAKE_MATCH_1}")
  math(EXPR text_off "0x${CMAKE_MATCH_2}")
  math(EXPR text_size "0x${CMAKE_MATCH_3}")
  if(NOT elfinfo MATCHES " \\.rodata +PROGBITS +([0-9a-f]+) ([0-9a-f]+) ([0-9a-f]+)")
    message(FATAL_ERROR "${fam}: no .rodata section")
  endif()
  math(EXPR ro_addr "0x${CMAKE_MATCH_1}")
  math(EXPR ro_off "0x${CMAKE_MATCH_2}")
  foreach(sym kfdsig_signal kfdsig_signal_raw kfdsig_signal.kd kfdsig_signal_raw.kd
              kfdsig_trap kfdsig_trap.kd kfdsig_patch_slot_lo kfdsig_patch_slot_hi kfdsig_patch_event_id)
    string(REPLACE "." "\\." re "${sym}")
    if(NOT elfinfo MATCHES ": ([0-9a-f]+) +([0-9]+) [A-Z]+ +[A-Z]+ +[A-Z]+ +[0-9]+ ${re}\n")
      message(FATAL_ERROR "${fam}: no symbol ${sym}")
    endif()
    math(EXPR addr "0x${CMAKE_MATCH_1}")
    set(symsize_${sym} ${CMAKE_MATCH_2})
    if(sym MATCHES "\\.kd$")
      math(EXPR fileoff_${sym} "${addr} - ${ro_addr} + ${ro_off}")
    else()
      math(EXPR fileoff_${sym} "${addr} - ${text_addr} + ${text_off}")
    endif()
  endforeach()
  set(co_entry ${fileoff_kfdsig_signal})
  set(co_size ${symsize_kfdsig_signal})
  set(raw_entry ${fileoff_kfdsig_signal_raw})
  # The raw blob runs to the end of .text (gfx10+: s_code_end padding).
  math(EXPR raw_size "${text_off} + ${text_size} - ${raw_entry}")
  math(EXPR raw_insn_size "${symsize_kfdsig_signal_raw}")
  # The trap stub sits between kfdsig_signal and kfdsig_signal_raw: its raw
  # blob runs to the raw kernel (gfx10+: its own s_code_end padding, then
  # the alignment fill).
  set(trap_entry ${fileoff_kfdsig_trap})
  set(trap_insn_size ${symsize_kfdsig_trap})
  math(EXPR trap_size "${raw_entry} - ${trap_entry}")
  if(trap_size LESS_EQUAL 0 OR trap_size LESS trap_insn_size)
    message(FATAL_ERROR "${fam}: kfdsig_trap must come before kfdsig_signal_raw")
  endif()
  foreach(p slot_lo slot_hi event_id)
    math(EXPR patch_${p} "${fileoff_kfdsig_patch_${p}} - 4 - ${raw_entry}")
  endforeach()

  # The members differ from the representative in e_flags (bytes 24..27)
  # and in the processor of amdhsa.target: split the tail around it.
  set(rep_mcpu ${rep})
  if(rep MATCHES "^(.*)=(.*)$")
    set(rep_mcpu ${CMAKE_MATCH_2})
  endif()
  string(HEX "amdgcn-amd-amdhsa--${rep_mcpu}" tid_hex)
  string(FIND "${hex}" "${tid_hex}" tid_pos)
  math(EXPR tid_odd "${tid_pos} % 2")
  if(tid_pos LESS 104 OR tid_odd)
    message(FATAL_ERROR "${fam}: no amdhsa.target amdgcn-amd-amdhsa--${rep_mcpu} in the code object")
  endif()
  string(LENGTH "${tid_hex}" tid_len)
  math(EXPR tail_a_len "${tid_pos} - 104")
  math(EXPR tail_b_pos "${tid_pos} + ${tid_len}")
  string(SUBSTRING "${hex}" 0 96 head)
  string(SUBSTRING "${hex}" 104 ${tail_a_len} tail_a)
  string(SUBSTRING "${hex}" ${tail_b_pos} -1 tail_b)
  c_bytes("${head}" head_c)
  c_bytes("${tail_a}" tail_a_c)
  c_bytes("${tail_b}" tail_b_c)
  string(TOUPPER "${fam}" FAM)
  string(APPEND arrays "#define CO_${FAM}_HEAD \\\n\t${head_c}\n")
  string(APPEND arrays "#define CO_${FAM}_TAIL_A \\\n\t${tail_a_c}\n")
  string(APPEND arrays "#define CO_${FAM}_TAIL_B \\\n\t${tail_b_c}\n\n")

  foreach(m IN LISTS members)
    set(mcpu ${m})
    if(m MATCHES "^(.*)=(.*)$")
      set(m ${CMAKE_MATCH_1})
      set(mcpu ${CMAKE_MATCH_2})
    endif()
    assemble(${src} ${mcpu} ${WORK}/${fam}-${m}.co)
    file(READ ${WORK}/${fam}-${m}.co mhex HEX)
    string(HEX "amdgcn-amd-amdhsa--${mcpu}" mtid_hex)
    string(SUBSTRING "${mhex}" 0 96 mhead)
    string(LENGTH "${mhex}" mlen)
    if(NOT mlen EQUAL hexlen)
      message(FATAL_ERROR "${fam}: the ${m} code object has another size than the ${rep} "
                          "one: give it its own family")
    endif()
    le32("${mhex}" 48 eflags)
    math(EXPR eflags_hex "${eflags}" OUTPUT_FORMAT HEXADECIMAL)
    set(mtail_a "")
    set(mtail_b "")
    set(mtid "")
    string(LENGTH "${mtid_hex}" mtid_len)
    if(mlen EQUAL hexlen AND mtid_len EQUAL tid_len)
      string(SUBSTRING "${mhex}" 104 ${tail_a_len} mtail_a)
      string(SUBSTRING "${mhex}" ${tid_pos} ${tid_len} mtid)
      string(SUBSTRING "${mhex}" ${tail_b_pos} -1 mtail_b)
    endif()
    if(mhead STREQUAL head AND mtail_a STREQUAL tail_a AND mtail_b STREQUAL tail_b AND
       mtid STREQUAL mtid_hex)
      string(SUBSTRING "${mhex}" 96 8 flags_hex)
      c_bytes("${flags_hex}" flags_c)
      c_bytes("${mtid_hex}" tid_c)
      string(APPEND arrays "static const uint8_t co_${m}[${size}] = { CO_${FAM}_HEAD, ${flags_c}, CO_${FAM}_TAIL_A,\n\t${tid_c}, CO_${FAM}_TAIL_B };\n")
    else()
      # Same layout, other bytes (gfx801 reserves the XNACK mask SGPRs,
      # which changes its kernel descriptors): store it whole.
      c_bytes("${mhex}" all_c)
      string(TOUPPER "${m}" M)
      string(APPEND arrays "#define CO_${M}_ALL \\\n\t${all_c}\n")
      string(APPEND arrays "static const uint8_t co_${m}[${size}] = { CO_${M}_ALL };\n")
    endif()
    string(APPEND targets "\t{ \"${m}\", \"${mcpu}\", ${fidx}, co_${m}, ${eflags_hex} },\n")
  endforeach()
  string(APPEND arrays "\n")

  # The source, as a C string (for kfdsig shader --format asm).
  file(READ ${src} text)
  string(REPLACE "\\" "\\\\" text "${text}")
  string(REPLACE "\"" "\\\"" text "${text}")
  string(REPLACE "\t" "\\t" text "${text}")
  string(REGEX REPLACE "\n" "\\\\n\"\n\t\"" text "${text}")
  string(APPEND sources "static const char src_${fam}[] =\n\t\"${text}\";\n\n")

  string(APPEND families "\t{ \"${fam}\", \"${fam}.s\", src_${fam}, \"${rep}\", ${size}, ${text_off}, ${text_size},\n"
                         "\t  ${co_entry}, ${co_size}, ${fileoff_kfdsig_signal.kd},\n"
                         "\t  ${raw_entry}, ${raw_size}, ${raw_insn_size}, ${fileoff_kfdsig_signal_raw.kd},\n"
                         "\t  { ${patch_slot_lo}, ${patch_slot_hi}, ${patch_event_id} },\n"
                         "\t  ${trap_entry}, ${trap_size}, ${trap_insn_size}, ${fileoff_kfdsig_trap.kd} },\n")
  math(EXPR fidx "${fidx} + 1")
endforeach()

string(REGEX REPLACE "\n\t\"\";\n" ";\n" sources "${sources}")
file(WRITE ${OUT}.tmp "/* SPDX-License-Identifier: MIT */
/*
 * GENERATED by src/shaders/gen_stubs.cmake from the src/shaders sources with
 * LLVM ${LLVM_VERSION} (llvm-mc, ld.lld). Do not edit: change the sources and run
 * the kfdsig-shaders build target. test/shaders_fresh.c fails when this file
 * differs from a fresh assembly.
 */
// clang-format off
#include \"shaders/stubs_gen.h\"

const char stub_llvm_version[] = \"${LLVM_VERSION}\";

${sources}${arrays}const struct stub_family stub_families[] = {
${families}};

const struct stub_target stub_targets[] = {
${targets}};

const unsigned stub_nfamilies = sizeof(stub_families) / sizeof(stub_families[0]);
const unsigned stub_ntargets = sizeof(stub_targets) / sizeof(stub_targets[0]);
// clang-format on
")
file(RENAME ${OUT}.tmp ${OUT})

# The stub families and the LLVM processors each is assembled for: the one
# home of "which source is a target's stub". Read by gen_stubs.cmake
# (regeneration); the library and the tests (test/emu_sq_util.h) use the
# table it generates (stubs_gen.c). Each entry: FAMILY_SOURCE:TARGET[=LLVM_PROCESSOR],...
# A target's code object is assembled with -mcpu=TARGET unless an
# LLVM_PROCESSOR is given: LLVM 22 dropped gfx940 and gfx941, whose
# instruction set is gfx942's.
set(KFDSIG_STUB_FAMILIES
  "gfx8:gfx803,gfx802,gfx801"
  "gfx9:gfx900,gfx902,gfx904,gfx906,gfx908,gfx909,gfx90c"
  "gfx90a:gfx90a"
  "gfx94x:gfx942,gfx940=gfx942,gfx941=gfx942,gfx950"
  "gfx10:gfx1010,gfx1011,gfx1012,gfx1030,gfx1031,gfx1032,gfx1033,gfx1034,gfx1035,gfx1036"
  "gfx11:gfx1100,gfx1101,gfx1102,gfx1103,gfx1150,gfx1151"
  "gfx12:gfx1200,gfx1201,gfx1250")

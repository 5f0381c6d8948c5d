# The function a compiler-made local clone was made from: GCC's
# .part.N (partial inlining), .cold / .cold.N (hot/cold splitting),
# .isra.N (scalar replacement of aggregates), .constprop.N (constant
# propagation), .lto_priv.N (LTO privatisation), .localalias; Clang's
# .llvm.N (ThinLTO promotion). Suffixes stack (f.isra.0.cold), so they
# are stripped until none is left; any other '.' suffix stays and is
# judged as a name of its own.
:strip
s/\.\(part\|isra\|constprop\|lto_priv\)\.[0-9][0-9]*$//
t strip
s/\.cold\(\.[0-9][0-9]*\)\{0,1\}$//
t strip
s/\.localalias$//
t strip
s/\.llvm\.[0-9][0-9]*$//
t strip

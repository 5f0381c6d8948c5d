// SPDX-License-Identifier: MIT
// Forms of gfx940-942 (test/emu_sqk_encoding.c).
v_mov_b64 v[2:3], v[4:5]
v_lshl_add_u64 v[2:3], v[4:5], 2, v[6:7]
global_load_dword v1, v[2:3], off sc0 sc1
global_store_dword v[2:3], v1, off nt
scratch_load_dword v1, v2, off offset:8
scratch_load_dword v1, off, s2 offset:8
scratch_store_dwordx2 v2, v[4:5], s3
buffer_wbl2 sc1
buffer_inv sc1

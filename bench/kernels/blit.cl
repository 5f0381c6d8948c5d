/* SPDX-License-Identifier: MIT */
/*
 * The copy kernels of bench/blit.c, compiled with LLVM 22 (opt, llc) for
 * each target at -O3 and dispatched through an AQL queue of the emulated
 * KFD: one 16-byte element per work-item (global_load_dwordx4 /
 * global_store_dwordx4, as ROCr's blit kernels move 16 bytes per load) and
 * one dword per work-item (as ROCclr's copyBuffer does for a dword-aligned
 * copy). Only clang builtins (no device library): the workgroup size from
 * the dispatch packet (hsa_kernel_dispatch_packet_t.workgroup_size_x at 4).
 */
typedef unsigned int u32;

static u32 gid(void)
{
	u32 wg = ((__constant unsigned short *)__builtin_amdgcn_dispatch_ptr())[2];

	return __builtin_amdgcn_workgroup_id_x() * wg + __builtin_amdgcn_workitem_id_x();
}

kernel void blit_x4(global const uint4 *src, global uint4 *dst, u32 n)
{
	u32 i = gid();

	if (i < n)
		dst[i] = src[i];
}

kernel void blit_dword(global const u32 *src, global u32 *dst, u32 n)
{
	u32 i = gid();

	if (i < n)
		dst[i] = src[i];
}

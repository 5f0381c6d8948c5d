/* SPDX-License-Identifier: MIT */
/*
 * The gfx8 address configuration amdgpu programs and amdkfd reports
 * (kfd_chardev.c kfd_ioctl_get_tile_config() -> amdgpu_amdkfd.c
 * amdgpu_amdkfd_get_tile_config(): gb_addr_config, the 32 GB_TILE_MODE and
 * 16 GB_MACROTILE_MODE values of adev->gfx.config, and num_banks /
 * num_ranks, which gfx_v8_0.c gfx_v8_0_gpu_early_init() takes as the
 * MC_ARB_RAMCFG fields NOOFBANK and NOOFRANKS, register codes, not counts).
 * The render node reads the same registers back (emu_drm.c). GC 9 and
 * later have no tile tables: zero tables, banks and ranks ("not set from
 * GFX9 onwards").
 *
 * Tile and macro-tile tables: gfx_v8_0.c gfx_v8_0_tiling_mode_table_init(),
 * keyed on asic_type; each value is that function's ARRAY_MODE |
 * PIPE_CONFIG | TILE_SPLIT | MICRO_TILE_MODE_NEW | SAMPLE_SPLIT (tile) and
 * BANK_WIDTH | BANK_HEIGHT | MACRO_TILE_ASPECT | NUM_BANKS (macro-tile)
 * with the field shifts of gfx_8_0_sh_mask.h (GB_TILE_MODE0__* 2, 6, 11,
 * 22, 25; GB_MACROTILE_MODE0__* 0, 2, 4, 6) and the enum values of
 * gfx_8_0_enum.h; entries the function does not set stay 0. The emulated
 * gfx801 is Carrizo, gfx802 Tonga, gfx803 Polaris10 (the PCI ids
 * emu_sysfs.c reports); CHIP_TONGA and CHIP_POLARIS10 set the same tables.
 *
 * gb_addr_config: gfx_v8_0_gpu_early_init()'s golden value per chip
 * (CARRIZO_GB_ADDR_CONFIG_GOLDEN 0x22010001, TONGA_GB_ADDR_CONFIG_GOLDEN
 * 0x22011003, which Polaris10 uses too) with ROW_SIZE (bits 28-29) set
 * from the memory's row size: a dGPU's from MC_ARB_RAMCFG NOOFCOLS
 * (4 << (8 + cols) bytes, at most 4 KiB), an APU's 1 KiB unless a DIMM maps
 * 8 GB (2 KiB).
 * MC_ARB_RAMCFG (gmc_8_1_sh_mask.h: NOOFBANK bits 0-1, NOOFRANKS bit 2,
 * NOOFROWS 3-5, NOOFCOLS 6-7) is the board's memory: the values below are
 * plausible boards (UNVERIFIED per board): GDDR5 dGPUs 16 banks (code 2),
 * one rank, 4 KiB rows (NOOFCOLS 2); Carrizo's DDR3 8 banks (code 1), one
 * rank, 1 KiB rows (no 8 GB DIMM). ROCr's address library decodes these
 * (siaddrlib.cpp DecodeGbRegs(): NOOFBANK 0/1/2 = 4/8/16 banks, NOOFRANKS
 * 0/1 = 1/2 ranks; anything else is "Unhandled case").
 */
#include <stddef.h>

#include "emu/emu_gen.h"

/* CHIP_CARRIZO */
static const uint32_t carrizo_tile[32] = {
	0x00800010, 0x00800810, 0x00801010, 0x00801810, 0x00802810, 0x00802808, 0x00802814,
	0x00000000, 0x00000004, 0x02000008, 0x02000010, 0x06000014, 0x00000000, 0x02400008,
	0x02400010, 0x02400030, 0x06400014, 0x00000000, 0x0040000c, 0x0100000c, 0x0100001c,
	0x01000034, 0x01000024, 0x00000000, 0x0040001c, 0x01000020, 0x01000038, 0x02c00008,
	0x02c00010, 0x06c00014, 0x00000000, 0x00000000,
};
static const uint32_t carrizo_macro[16] = {
	0x000000a8, 0x000000a4, 0x00000090, 0x00000090, 0x00000090, 0x00000090,
	0x00000090, 0x00000000, 0x000000ee, 0x000000ea, 0x000000e9, 0x000000e5,
	0x000000e4, 0x000000e0, 0x00000090, 0x00000000,
};

/* CHIP_TONGA, CHIP_POLARIS10 */
static const uint32_t tonga_tile[32] = {
	0x00800310, 0x00800b10, 0x00801310, 0x00801b10, 0x00802b10, 0x00802b08, 0x00802b14,
	0x00802954, 0x00000304, 0x02000308, 0x02000310, 0x06000314, 0x06000154, 0x02400308,
	0x02400310, 0x02400330, 0x06400314, 0x06400154, 0x0040030c, 0x0100030c, 0x0100031c,
	0x01000334, 0x01000324, 0x01000164, 0x0040031c, 0x01000320, 0x01000338, 0x02c00308,
	0x02c00310, 0x06c00314, 0x06c00154, 0x00000000,
};
static const uint32_t tonga_macro[16] = {
	0x000000e8, 0x000000e8, 0x000000e8, 0x000000e8, 0x000000d4, 0x000000c0,
	0x000000c0, 0x00000000, 0x000000ec, 0x000000e8, 0x000000d4, 0x000000d0,
	0x00000080, 0x00000040, 0x00000040, 0x00000000,
};

static const struct emu_tile_config tiles[] = {
	{ 80001, 0x02010001, 0x00000061, carrizo_tile, carrizo_macro },
	{ 80002, 0x22011003, 0x000000a2, tonga_tile, tonga_macro },
	{ 80003, 0x22011003, 0x000000a2, tonga_tile, tonga_macro },
};

const struct emu_tile_config *emu_tile_config(uint32_t gfxv)
{
	for (size_t i = 0; i < sizeof(tiles) / sizeof(tiles[0]); i++)
		if (tiles[i].gfxv == gfxv)
			return &tiles[i];
	return NULL;
}

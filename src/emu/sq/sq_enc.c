/* SPDX-License-Identifier: MIT */
/*
 * The shader unit's per-generation encodings.
 */
#include "emu/sq/sq_priv.h"

/*
 * The shader unit reads no field of the generation table but the GC IP
 * version (and what the kernel keys on with it): the encoding generation
 * comes from the emulator's own table (emu_gen.c).
 */
int emu_sq_gen(const struct kfdsig_target *target, struct emu_gen *g)
{
	return emu_gen_derive(g, target->gc_ip, target->sdma_ip, target->gfx_target_version, 0, 0);
}

/* SPDX-License-Identifier: MIT */
/*
 * kfdsig/signal.h: one call per signal. The shader path copies the stub to
 * the first place after code->used where its entry is 256-byte aligned
 * (COMPUTE_PGM_LO holds address bits 47:8), fills in the slot and the id
 * (raw: the literals at the published offsets; code object: 16 bytes of
 * kernel arguments u64 slot, u32 id, u32 0 at the next 16-byte boundary),
 * puts ctxid in m0 only for a deliberately bad fence, advances code->used,
 * and on any error writes nothing. The PM4 and SDMA paths are the fence
 * emitters. AQL: an amd_signal_t (kind USER = 1, value 1, mailbox = the
 * slot, event_id = the id, or ctxid for a deliberately bad fence) at the
 * first 64-byte aligned GPU address at or after code->used, then one
 * barrier-AND packet naming it as its completion signal (bytes 56-63).
 */
#include <string.h>

#include "helpers.h"

#define PAGE 0x7f00000000ull /* below 2^40: gfx8 reaches it */
#define VA 0x100040ull	     /* deliberately not 256-byte aligned */

static uint8_t mem[16384];

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static struct kfdsig_code_buf buf_at(uint64_t used, uint64_t size, uint32_t form)
{
	KFDSIG_OPTS(kfdsig_code_buf, cb, .cpu = mem, .va = VA, .size = size, .used = used,
		    .form = form);
	return cb;
}

static void test_raw(const struct kfdsig_target *t)
{
	struct kfdsig_shader_stub s;
	struct kfdsig_fence f = { .slot_va = PAGE + 8 * 300, .event_id = 300 };
	struct kfdsig_code_buf cb = buf_at(8, sizeof(mem), KFDSIG_SHADER_RAW);
	struct kfdsig_shader_placed at, at2;
	uint64_t off, first_end;
	int r;

	if (kfdsig_shader_stub(t, KFDSIG_SHADER_RAW, &s)) {
		CHECK(0, "%s: no raw stub", t->name);
		return;
	}
	memset(mem, 0xee, sizeof(mem));
	r = kfdsig_shader_place(&s, &cb, &f, &at);
	CHECK(r >= 0, "%s place: %s", t->name, kfdsig_last_error());
	if (r < 0)
		return;
	CHECK_EQ(at.entry_va % 256, 0, "%s entry aligned", t->name);
	CHECK(at.entry_va >= VA + 8 + s.entry_offset && at.entry_va < VA + 8 + s.entry_offset + 256,
	      "%s the first aligned entry after used", t->name);
	CHECK_EQ(at.kernarg_va, 0, "%s raw: no kernel arguments", t->name);
	off = at.entry_va - s.entry_offset - VA;
	CHECK_EQ(cb.used, off + s.size, "%s used advanced past the copy", t->name);
	CHECK_EQ(le32(mem + off + s.patch_offset[KFDSIG_SHADER_PATCH_SLOT_LO]), (uint32_t)f.slot_va,
		 "%s slot lo", t->name);
	CHECK_EQ(le32(mem + off + s.patch_offset[KFDSIG_SHADER_PATCH_SLOT_HI]),
		 (uint32_t)(f.slot_va >> 32), "%s slot hi", t->name);
	CHECK_EQ(le32(mem + off + s.patch_offset[KFDSIG_SHADER_PATCH_EVENT_ID]), 300, "%s m0",
		 t->name);
	/* everything else is the stub as published */
	for (size_t i = 0, k; i < s.size; i++) {
		for (k = 0; k < KFDSIG_SHADER_NPATCH; k++)
			if (i >= s.patch_offset[k] && i < s.patch_offset[k] + 4)
				break;
		if (k == KFDSIG_SHADER_NPATCH && mem[off + i] != s.bytes[i]) {
			CHECK(0, "%s byte %zu differs from the stub", t->name, i);
			break;
		}
	}
	CHECK(mem[off - 1] == 0xee && mem[off + s.size] == 0xee, "%s nothing outside the copy",
	      t->name);
	CHECK_EQ(r, kfdsig_shader_kfd_id(t, 300) == 300 ? 0 : KFDSIG_SHADER_PARTIAL_ID,
		 "%s partial id as kfdsig_shader_patch", t->name);

	/* the next one goes after it; m0 deliberately another id */
	first_end = cb.used;
	f.flags = KFDSIG_FENCE_CTXID | KFDSIG_FENCE_DELIBERATELY_BAD;
	f.ctxid = 300 & 0xff;
	CHECK(kfdsig_shader_place(&s, &cb, &f, &at2) >= 0, "%s second", t->name);
	CHECK(at2.entry_va % 256 == 0 && at2.entry_va - s.entry_offset >= VA + first_end,
	      "%s second copy after the first", t->name);
	off = at2.entry_va - s.entry_offset - VA;
	CHECK_EQ(le32(mem + off + s.patch_offset[KFDSIG_SHADER_PATCH_EVENT_ID]), 44,
		 "%s m0 = ctxid", t->name);
	CHECK_EQ(le32(mem + off + s.patch_offset[KFDSIG_SHADER_PATCH_SLOT_LO]),
		 (uint32_t)(PAGE + 8 * 300), "%s the slot stays the event's", t->name);
}

static void test_code_object(const struct kfdsig_target *t)
{
	struct kfdsig_shader_stub s;
	struct kfdsig_fence f = { .slot_va = PAGE + 8 * 7, .event_id = 7 };
	struct kfdsig_code_buf cb = buf_at(0, sizeof(mem), KFDSIG_SHADER_CODE_OBJECT);
	struct kfdsig_shader_placed at;
	uint32_t d[KFDSIG_SIGNAL_MAX_DW], want[KFDSIG_PM4_DISPATCH_MAX_DW];
	uint64_t k;
	int n, m, p;

	if (kfdsig_shader_stub(t, KFDSIG_SHADER_CODE_OBJECT, &s)) {
		CHECK(0, "%s: no code object", t->name);
		return;
	}
	if (kfdsig_shader_place(&s, &cb, &f, &at) < 0) {
		CHECK(0, "%s place: %s", t->name, kfdsig_last_error());
		return;
	}
	CHECK_EQ(at.entry_va % 256, 0, "%s entry aligned", t->name);
	k = at.kernarg_va - VA;
	CHECK(at.kernarg_va % 16 == 0 && k >= at.entry_va - s.entry_offset - VA + s.size &&
		      k < at.entry_va - s.entry_offset - VA + s.size + 16,
	      "%s kernel arguments at the next 16-byte boundary after the copy", t->name);
	CHECK_EQ(cb.used, k + 16, "%s used past the arguments", t->name);
	CHECK(le32(mem + k) == (uint32_t)f.slot_va && le32(mem + k + 4) == f.slot_va >> 32 &&
		      le32(mem + k + 8) == 7 && le32(mem + k + 12) == 0,
	      "%s kernel arguments", t->name);

	/* kfdsig_emit_signal: the same placement, then the dispatch */
	cb.used = 0;
	f.flags = KFDSIG_FENCE_CTXID | KFDSIG_FENCE_DELIBERATELY_BAD;
	f.ctxid = 4000;
	n = kfdsig_emit_signal(t, KFDSIG_SIGNAL_SHADER, &f, &cb, d, KFDSIG_SIGNAL_MAX_DW);
	m = kfdsig_pm4_emit_dispatch(&s, at.entry_va, at.kernarg_va, want,
				     KFDSIG_PM4_DISPATCH_MAX_DW);
	/* multi-XCC: PRED_EXEC naming XCC 0 first, PACKET3(0x23, 0) =
	 * 0xc0002300 and mask 1 << 24 | count (docs/multi-xcc.md) */
	p = t->max_xcc > 1 ? 2 : 0;
	CHECK(!p || (n == m + 2 && d[0] == 0xc0002300u && d[1] == (0x01000000u | (uint32_t)m)),
	      "%s multi-XCC: the dispatch predicated to XCC 0", t->name);
	CHECK(n > 0 && n == m + p && !memcmp(d + p, want, 4 * (size_t)m),
	      "%s the dispatch of the copy", t->name);
	CHECK_EQ(le32(mem + k + 8), 4000, "%s m0 = ctxid in the arguments", t->name);
}

/* Every refusal leaves the buffer and code->used as they were. */
static void test_refusals(void)
{
	const struct kfdsig_target *t = kfdsig_target_by_name("gfx1100");
	static uint8_t before[sizeof(mem)];
	struct kfdsig_shader_stub s;
	struct kfdsig_fence good = { .slot_va = PAGE + 8 * 5, .event_id = 5 };
	struct kfdsig_code_buf cb;
	uint32_t d[KFDSIG_SIGNAL_MAX_DW];
	struct {
		const char *what;
		struct kfdsig_fence f;
		uint64_t size;
		size_t max_dw;
		int want;
	} cases[] = {
		{ "id 0", { .slot_va = PAGE, .event_id = 0 }, sizeof(mem), 64, -EINVAL },
		{ "id 4096",
		  { .slot_va = PAGE + 8 * 4096, .event_id = 4096 },
		  sizeof(mem),
		  64,
		  -EINVAL },
		{ "slot of another event",
		  { .slot_va = PAGE + 8 * 6, .event_id = 5 },
		  sizeof(mem),
		  64,
		  -EINVAL },
		{ "ctxid without DELIBERATELY_BAD",
		  { .slot_va = PAGE + 8 * 5,
		    .event_id = 5,
		    .ctxid = 6,
		    .flags = KFDSIG_FENCE_CTXID },
		  sizeof(mem),
		  64,
		  -EINVAL },
		{ "bad id even when DELIBERATELY_BAD",
		  { .slot_va = PAGE,
		    .event_id = 0,
		    .ctxid = 6,
		    .flags = KFDSIG_FENCE_CTXID | KFDSIG_FENCE_DELIBERATELY_BAD },
		  sizeof(mem),
		  64,
		  -EINVAL },
		{ "DELIBERATELY_BAD without a ctxid",
		  { .slot_va = PAGE + 8 * 5,
		    .event_id = 5,
		    .flags = KFDSIG_FENCE_DELIBERATELY_BAD },
		  sizeof(mem),
		  64,
		  -EINVAL },
		{ "a value",
		  { .slot_va = PAGE + 8 * 5,
		    .event_id = 5,
		    .value = 2,
		    .flags = KFDSIG_FENCE_VALUE },
		  sizeof(mem),
		  64,
		  -EINVAL },
		{ "a cache action",
		  { .slot_va = PAGE + 8 * 5, .event_id = 5, .cache = 1 },
		  sizeof(mem),
		  64,
		  -EINVAL },
		{ "code buffer too small",
		  { .slot_va = PAGE + 8 * 5, .event_id = 5 },
		  300,
		  64,
		  -ENOSPC },
		{ "dispatch buffer too small",
		  { .slot_va = PAGE + 8 * 5, .event_id = 5 },
		  sizeof(mem),
		  5,
		  -ENOSPC },
	};

	if (kfdsig_shader_stub(t, KFDSIG_SHADER_RAW, &s)) {
		CHECK(0, "no stub");
		return;
	}
	memset(mem, 0x5a, sizeof(mem));
	memcpy(before, mem, sizeof(mem));
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cb = buf_at(16, cases[i].size, KFDSIG_SHADER_RAW);
		CHECK_EQ(kfdsig_emit_signal(t, KFDSIG_SIGNAL_SHADER, &cases[i].f, &cb, d,
					    cases[i].max_dw),
			 cases[i].want, "%s", cases[i].what);
		CHECK_EQ(cb.used, 16, "%s: used unchanged", cases[i].what);
		CHECK(!memcmp(mem, before, sizeof(mem)), "%s: nothing written", cases[i].what);
		memcpy(mem, before, sizeof(mem));
	}
	cb = buf_at(sizeof(mem) + 1, sizeof(mem), KFDSIG_SHADER_RAW);
	CHECK_EQ(kfdsig_shader_place(&s, &cb, &good, NULL), -EINVAL, "used beyond size");
	cb = buf_at(0, sizeof(mem), KFDSIG_SHADER_RAW);
	cb.pad_0 = 1;
	CHECK_EQ(kfdsig_shader_place(&s, &cb, &good, NULL), -EINVAL, "pad_0 set");
	cb.pad_0 = 0;
	cb.va = 1ull << 48;
	CHECK_EQ(kfdsig_shader_place(&s, &cb, &good, NULL), -EINVAL, "code beyond 2^48");
	cb.va = VA;
	CHECK_EQ(kfdsig_emit_signal(t, KFDSIG_SIGNAL_SHADER, &good, NULL, d, 64), -EINVAL,
		 "shader without a code buffer");
	CHECK_EQ(kfdsig_emit_signal(t, (enum kfdsig_signal_engine)9, &good, &cb, d, 64), -EINVAL,
		 "unknown engine");
	CHECK_EQ(kfdsig_shader_place(NULL, &cb, &good, NULL), -EINVAL, "no stub");
	CHECK_EQ(kfdsig_shader_place(&s, &cb, NULL, NULL), -EINVAL, "no fence");
	CHECK(kfdsig_shader_place(&s, &cb, &good, NULL) >= 0, "and the good one: %s",
	      kfdsig_last_error());
}

/* PM4 and SDMA: exactly the fence emitters' output. */
static void test_fences(const struct kfdsig_target *t)
{
	struct kfdsig_fence f = { .slot_va = PAGE + 8 * 9, .event_id = 9 };
	uint32_t a[KFDSIG_SIGNAL_MAX_DW], b[KFDSIG_SIGNAL_MAX_DW];
	int n, m;

	n = kfdsig_emit_signal(t, KFDSIG_SIGNAL_PM4, &f, NULL, a, KFDSIG_SIGNAL_MAX_DW);
	m = kfdsig_pm4_emit_fence(t, &f, b, KFDSIG_SIGNAL_MAX_DW);
	if (t->max_xcc > 1) { /* PRED_EXEC(XCC 0, the fence) first (0xc0002300) */
		CHECK(n == m + 2 && a[0] == 0xc0002300u && a[1] == (0x01000000u | (uint32_t)m) &&
			      !memcmp(a + 2, b, 4 * (size_t)m),
		      "%s pm4: the fence predicated to XCC 0", t->name);
	} else {
		CHECK(n > 0 && n == m && !memcmp(a, b, 4 * (size_t)n), "%s pm4", t->name);
	}
	n = kfdsig_emit_signal(t, KFDSIG_SIGNAL_SDMA, &f, NULL, a, KFDSIG_SIGNAL_MAX_DW);
	m = kfdsig_sdma_emit_fence(t, &f, b, KFDSIG_SIGNAL_MAX_DW);
	CHECK(n > 0 && n == m && !memcmp(a, b, 4 * (size_t)n), "%s sdma", t->name);
	{ /* signal.h: a code buffer given for SDMA is -EINVAL */
		struct kfdsig_code_buf cb = buf_at(8, sizeof(mem), KFDSIG_SHADER_RAW);

		CHECK_EQ(
			kfdsig_emit_signal(t, KFDSIG_SIGNAL_SDMA, &f, &cb, a, KFDSIG_SIGNAL_MAX_DW),
			-EINVAL, "%s sdma with a code buffer", t->name);
	}
	CHECK(m <= KFDSIG_SIGNAL_MAX_DW && KFDSIG_PM4_DISPATCH_MAX_DW <= KFDSIG_SIGNAL_MAX_DW,
	      "KFDSIG_SIGNAL_MAX_DW holds every engine's signal");
}

static uint64_t le64(const uint8_t *p)
{
	return le32(p) | (uint64_t)le32(p + 4) << 32;
}

/* AQL: the signal's bytes (ROCr amd_signal_t offsets: kind 0, value 8,
 * event_mailbox_ptr 16, event_id 24) and the packet that completes it. */
static void test_aql(const struct kfdsig_target *t)
{
	const uint64_t slot = PAGE + 8 * 77;
	struct kfdsig_fence f = { .slot_va = slot, .event_id = 77 };
	struct kfdsig_code_buf cb = buf_at(8, sizeof(mem), KFDSIG_SHADER_RAW);
	uint32_t d[KFDSIG_SIGNAL_MAX_DW], want[16];
	/* VA + 8 is 0x100048: the next 64-byte aligned address is 0x100080 */
	const uint64_t at = 0x100080ull - VA;
	int n;

	memset(mem, 0xee, sizeof(mem));
	n = kfdsig_emit_signal(t, KFDSIG_SIGNAL_AQL, &f, &cb, d, KFDSIG_SIGNAL_MAX_DW);
	CHECK_EQ(n, 16, "%s aql: one 64-byte packet: %s", t->name, kfdsig_last_error());
	CHECK_EQ(cb.used, at + 64, "%s aql: used past the signal", t->name);
	CHECK_EQ(le64(mem + at), 1, "%s aql: kind USER (1)", t->name);
	CHECK_EQ(le64(mem + at + 8), 1, "%s aql: value 1", t->name);
	CHECK_EQ(le64(mem + at + 16), slot, "%s aql: mailbox = the slot", t->name);
	CHECK_EQ(le32(mem + at + 24), 77, "%s aql: event_id", t->name);
	CHECK_EQ(mem[at - 1], 0xee, "%s aql: nothing before the signal", t->name);
	CHECK_EQ(kfdsig_aql_emit_barrier(want, KFDSIG_AQL_TYPE_BARRIER_AND, NULL, 0, VA + at,
					 KFDSIG_AQL_CTL_DEFAULT),
		 64, "barrier");
	CHECK(n == 16 && !memcmp(d, want, sizeof(want)), "%s aql: the barrier-AND naming it",
	      t->name);

	/* deliberately bad: ctxid becomes the signal's event_id */
	f.flags = KFDSIG_FENCE_CTXID | KFDSIG_FENCE_DELIBERATELY_BAD;
	f.ctxid = 4000;
	cb = buf_at(0, sizeof(mem), KFDSIG_SHADER_RAW);
	n = kfdsig_emit_signal(t, KFDSIG_SIGNAL_AQL, &f, &cb, d, KFDSIG_SIGNAL_MAX_DW);
	CHECK_EQ(n, 16, "%s aql ctxid", t->name);
	CHECK_EQ(le32(mem + 24), 4000, "%s aql: ctxid as event_id", t->name);
	CHECK_EQ(le64(mem + 16), slot, "%s aql: the slot stays", t->name);

	/* refusals write nothing */
	f.flags = KFDSIG_FENCE_VALUE;
	f.value = 5;
	cb = buf_at(0, sizeof(mem), KFDSIG_SHADER_RAW);
	CHECK_EQ(kfdsig_emit_signal(t, KFDSIG_SIGNAL_AQL, &f, &cb, d, KFDSIG_SIGNAL_MAX_DW),
		 -EINVAL, "%s aql: a fence value", t->name);
	f.flags = 0;
	CHECK_EQ(kfdsig_emit_signal(t, KFDSIG_SIGNAL_AQL, &f, NULL, d, KFDSIG_SIGNAL_MAX_DW),
		 -EINVAL, "%s aql: no code buffer", t->name);
	CHECK_EQ(kfdsig_emit_signal(t, KFDSIG_SIGNAL_AQL, &f, &cb, d, 15), -ENOSPC,
		 "%s aql: 15 dwords", t->name);
	cb = buf_at(8, 0x40 + 63, KFDSIG_SHADER_RAW);
	CHECK_EQ(kfdsig_emit_signal(t, KFDSIG_SIGNAL_AQL, &f, &cb, d, KFDSIG_SIGNAL_MAX_DW),
		 -ENOSPC, "%s aql: 63 bytes after the aligned place", t->name);
	CHECK_EQ(cb.used, 8, "%s aql: used unchanged", t->name);
	f.event_id = 0;
	cb = buf_at(0, sizeof(mem), KFDSIG_SHADER_RAW);
	CHECK_EQ(kfdsig_emit_signal(t, KFDSIG_SIGNAL_AQL, &f, &cb, d, KFDSIG_SIGNAL_MAX_DW),
		 -EINVAL, "%s aql: event 0", t->name);
}

int main(void)
{
	for (size_t i = 0; i < kfdsig_target_count(); i++) {
		const struct kfdsig_target *t = kfdsig_target_at(i);

		if (!t_no_stub(t)) {
			test_raw(t);
			test_code_object(t);
		}
		test_fences(t);
		test_aql(t);
	}
	test_refusals();
	return t_result("signal_api");
}

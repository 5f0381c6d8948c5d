/* SPDX-License-Identifier: MIT */
/*
 * The ABI rule for structs that grow (include/kfdsig/common.h, KFDSIG_OPTS):
 * every options and ops struct begins with its size. A caller built with an
 * older, smaller struct works, and the fields past its size read as 0
 * whatever the memory there holds; a caller built with a newer, larger
 * struct works while the bytes this library does not know are 0, and gets
 * -EINVAL once one of them is set; sz 0 (a struct declared without
 * KFDSIG_OPTS) is refused. Checked for each such struct of the API.
 */
#include <stddef.h>
#include <string.h>

#include "helpers.h"

/*
 * No implicit padding (every byte is a field, so a zeroed declaration
 * zeroes it): on LP64 the sizes are the sums of the fields. A new field
 * goes at the end and changes the size here on purpose.
 */
#if UINTPTR_MAX == UINT64_MAX
_Static_assert(sizeof(struct kfdsig_queue_opts) == 8 + 8 * 4 + 2 * 8 + 2 * 4,
	       "kfdsig_queue_opts padding");
_Static_assert(sizeof(struct kfdsig_decode_opts) == 8 + 8 + 4 + 4 + 8 + 4 + 4 + 8 + 4 + 4,
	       "decode_opts padding");
_Static_assert(sizeof(struct kfdsig_userq_submit) == 8 + 3 * 8 + 2 * 4 + 8 + 2 * 4,
	       "userq_submit padding");
_Static_assert(sizeof(struct kfdsig_userq_create_args) == 8 + 4 * 4 + 7 * 8,
	       "userq_create_args padding");
_Static_assert(sizeof(struct kfdsig_decode_sink) == 5 * 8, "decode_sink padding");
_Static_assert(sizeof(struct kfdsig_kfd_ops) == 15 * 8, "kfd_ops padding");
_Static_assert(sizeof(struct kfdsig_pm4_kernel) == 3 * 8 + 3 * 4 + 3 * 2 + 2 + 3 * 4 + 8 * 8,
	       "pm4_kernel padding");
_Static_assert(sizeof(struct kfdsig_emu_config) == 3 * 8 + 3 * 4 + 1 + 3 + 8, "emu_config padding");
_Static_assert(sizeof(struct kfdsig_emu_gpu_desc) == 3 * 8 + 8 * 4 + 8 * 4, "gpu_desc padding");
_Static_assert(sizeof(struct kfdsig_emu_smi_args) == 7 * 8 + 7 * 4 + 1 + 3, "smi_args padding");
_Static_assert(sizeof(struct kfdsig_code_buf) == 5 * 8 + 2 * 4, "code_buf padding");
_Static_assert(sizeof(struct kfdsig_shader_placed) == 4 * 8, "shader_placed padding");
_Static_assert(sizeof(struct kfdsig_aql_dispatch) == 8 + 2 + 3 * 2 + 3 * 4 + 3 * 4 + 3 * 8,
	       "aql_dispatch padding");
#endif

/* A newer caller's struct: this library's, then a field it does not know. */
#define NEWER(type)                  \
	struct {                     \
		struct type o;       \
		uint64_t next_field; \
	}

static void test_queue_opts(void)
{
	struct kfdsig_emu *emu = kfdsig_emu_create_from_spec("gfx90a");
	struct kfdsig_kfd *kfd = NULL;
	struct kfdsig_kfd_queue *q = NULL;
	NEWER(kfdsig_queue_opts) big;
	uint32_t gpu;

	if (!emu || kfdsig_kfd_open(kfdsig_emu_ops(emu), &kfd) < 0) {
		CHECK(0, "emulated KFD: %s", kfdsig_last_error());
		return;
	}
	gpu = kfdsig_kfd_device(kfd, 0)->gpu_id;
	KFDSIG_OPTS(kfdsig_queue_opts, o, .ring_size = 4096);

	CHECK_EQ(kfdsig_kfd_queue_create(kfd, gpu, KFDSIG_QUEUE_PM4, &o, &q), 0, "current size");
	kfdsig_kfd_queue_destroy(q);
	/* an older caller knew only sz: the ring size behind it is not read
	 * (3 bytes is no valid ring size, but it reads as 0: 64 KiB) */
	o.sz = offsetof(struct kfdsig_queue_opts, ring_size);
	o.ring_size = 3;
	CHECK_EQ(kfdsig_kfd_queue_create(kfd, gpu, KFDSIG_QUEUE_PM4, &o, &q), 0, "smaller sz: %s",
		 kfdsig_last_error());
	kfdsig_kfd_queue_destroy(q);
	o.sz = sizeof(o);
	CHECK_EQ(kfdsig_kfd_queue_create(kfd, gpu, KFDSIG_QUEUE_PM4, &o, &q), -EINVAL,
		 "the same ring size inside sz is read");
	o.sz = 0;
	o.ring_size = 4096;
	CHECK_EQ(kfdsig_kfd_queue_create(kfd, gpu, KFDSIG_QUEUE_PM4, &o, &q), -EINVAL, "sz 0");
	memset(&big, 0, sizeof(big));
	big.o.sz = sizeof(big);
	big.o.ring_size = 4096;
	CHECK_EQ(kfdsig_kfd_queue_create(kfd, gpu, KFDSIG_QUEUE_PM4, &big.o, &q), 0,
		 "larger, zero tail: %s", kfdsig_last_error());
	kfdsig_kfd_queue_destroy(q);
	big.next_field = 1;
	CHECK_EQ(kfdsig_kfd_queue_create(kfd, gpu, KFDSIG_QUEUE_PM4, &big.o, &q), -EINVAL,
		 "larger, unknown field set");
	CHECK(strstr(kfdsig_last_error(), "kfdsig_queue_opts") != NULL, "names the struct: %s",
	      kfdsig_last_error());
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
}

static int findings;

static int on_finding(void *ctx, const struct kfdsig_finding *f)
{
	(void)ctx;
	(void)f;
	findings++;
	return 0;
}

static void test_decode(void)
{
	/* RELEASE_MEM for gfx90a with INT_CTXID 0: an error-level finding */
	const uint32_t bad[] = { 0xc0064900, 0x00238514, 0x42000000, 0x28, 0x7f00, 1, 0, 0 };
	KFDSIG_OPTS(kfdsig_decode_opts, o, .target = kfdsig_target_by_name("gfx90a"),
		    .engine = KFDSIG_ENGINE_PM4, .flags = KFDSIG_DECODE_LINT);
	KFDSIG_OPTS(kfdsig_decode_sink, s, .finding = on_finding);
	NEWER(kfdsig_decode_opts) big;

	findings = 0;
	CHECK_EQ(kfdsig_decode(&o, &s, bad, 8, NULL), 1, "lint finds the zero context id");
	CHECK(findings >= 1, "the sink got it");
	/* an older caller without flags: no lint, whatever the bytes say */
	o.sz = offsetof(struct kfdsig_decode_opts, flags);
	o.flags = 1u << 30;
	findings = 0;
	CHECK_EQ(kfdsig_decode(&o, &s, bad, 8, NULL), 0, "smaller sz: %s", kfdsig_last_error());
	CHECK_EQ(findings, 0, "no lint");
	o.sz = sizeof(o);
	CHECK_EQ(kfdsig_decode(&o, &s, bad, 8, NULL), -EINVAL, "inside sz the flags are read");
	o.flags = KFDSIG_DECODE_LINT;
	/* a sink that ends before its finding callback */
	s.sz = offsetof(struct kfdsig_decode_sink, finding);
	findings = 0;
	CHECK_EQ(kfdsig_decode(&o, &s, bad, 8, NULL), 1, "smaller sink");
	CHECK_EQ(findings, 0, "the callback past sz is not called");
	s.sz = 0;
	CHECK_EQ(kfdsig_decode(&o, &s, bad, 8, NULL), -EINVAL, "sink sz 0");
	CHECK(kfdsig_decoder_new(&o, &s) == NULL && errno == EINVAL, "decoder_new sink sz 0");
	s.sz = sizeof(s);
	o.sz = 0;
	CHECK_EQ(kfdsig_lint(&o, &s, bad, 8, NULL), -EINVAL, "opts sz 0");
	memset(&big, 0, sizeof(big));
	big.o = o;
	big.o.sz = sizeof(big);
	CHECK_EQ(kfdsig_lint(&big.o, &s, bad, 8, NULL), 1, "larger, zero tail");
	big.next_field = 1ull << 63;
	CHECK_EQ(kfdsig_lint(&big.o, &s, bad, 8, NULL), -EINVAL, "larger, unknown field set");
	big.o.sz = 1u << 20;
	CHECK_EQ(kfdsig_lint(&big.o, &s, bad, 8, NULL), -EINVAL, "absurd sz");
}

static void test_emu(void)
{
	struct kfdsig_emu_gpu_desc d = { .target = "gfx1100" };
	KFDSIG_OPTS(kfdsig_emu_config, c, .gpus = &d, .ngpus = 1, .task_name = "abi");
	NEWER(kfdsig_emu_config) big;
	struct kfdsig_emu *emu;

	emu = kfdsig_emu_create(&c);
	CHECK(emu != NULL, "current size: %s", kfdsig_last_error());
	kfdsig_emu_destroy(emu);
	c.sz = offsetof(struct kfdsig_emu_config, task_name);
	emu = kfdsig_emu_create(&c);
	CHECK(emu != NULL, "smaller sz: %s", kfdsig_last_error());
	kfdsig_emu_destroy(emu);
	c.sz = 0;
	CHECK(kfdsig_emu_create(&c) == NULL && errno == EINVAL, "sz 0");
	c.sz = sizeof(c);
	c.pad_0[1] = 1;
	CHECK(kfdsig_emu_create(&c) == NULL && errno == EINVAL, "padding set");
	c.pad_0[1] = 0;
	d.reserved[6] = 1;
	CHECK(kfdsig_emu_create(&c) == NULL && errno == EINVAL, "gpu reserved word set");
	d.reserved[6] = 0;
	memset(&big, 0, sizeof(big));
	big.o = c;
	big.o.sz = sizeof(big);
	emu = kfdsig_emu_create(&big.o);
	CHECK(emu != NULL, "larger, zero tail: %s", kfdsig_last_error());
	if (emu) {
		/* SMI arguments follow the same rule */
		uint32_t gpu = 0;
		struct kfdsig_kfd *kfd = NULL;
		KFDSIG_OPTS(kfdsig_emu_smi_args, a);

		if (!kfdsig_kfd_open(kfdsig_emu_ops(emu), &kfd))
			gpu = kfdsig_kfd_device(kfd, 0)->gpu_id;
		CHECK(kfdsig_emu_smi_emit(emu, gpu, KFDSIG_SMI_THERMAL_THROTTLE, &a) >= 0,
		      "smi args: %s", kfdsig_last_error());
		a.sz = 0;
		CHECK_EQ(kfdsig_emu_smi_emit(emu, gpu, KFDSIG_SMI_THERMAL_THROTTLE, &a), -EINVAL,
			 "smi args sz 0");
		kfdsig_kfd_close(kfd);
	}
	kfdsig_emu_destroy(emu);
	big.next_field = 1;
	CHECK(kfdsig_emu_create(&big.o) == NULL && errno == EINVAL, "larger, unknown field set");
}

static void test_kfd_ops(void)
{
	struct kfdsig_emu *emu = kfdsig_emu_create_from_spec("gfx90a");
	NEWER(kfdsig_kfd_ops) big;
	struct kfdsig_kfd *kfd = NULL;

	if (!emu) {
		CHECK(0, "emulator: %s", kfdsig_last_error());
		return;
	}
	memset(&big, 0, sizeof(big));
	big.o = *kfdsig_emu_ops(emu);
	CHECK_EQ(big.o.sz, sizeof(struct kfdsig_kfd_ops), "the library's tables carry sz");
	/* an older caller's table without the optional privileged() */
	big.o.sz = offsetof(struct kfdsig_kfd_ops, privileged);
	CHECK_EQ(kfdsig_kfd_open(&big.o, &kfd), 0, "smaller sz: %s", kfdsig_last_error());
	CHECK(kfd && kfdsig_kfd_ops_of(kfd)->privileged == NULL, "ops past sz read as NULL");
	kfdsig_kfd_close(kfd);
	big.o.sz = offsetof(struct kfdsig_kfd_ops, poll);
	CHECK_EQ(kfdsig_kfd_open(&big.o, &kfd), -EINVAL, "a table without poll is incomplete");
	big.o.sz = 0;
	CHECK_EQ(kfdsig_kfd_open(&big.o, &kfd), -EINVAL, "sz 0");
	big.o.sz = sizeof(big);
	CHECK_EQ(kfdsig_kfd_open(&big.o, &kfd), 0, "larger, zero tail: %s", kfdsig_last_error());
	kfdsig_kfd_close(kfd);
	big.next_field = 1;
	CHECK_EQ(kfdsig_kfd_open(&big.o, &kfd), -EINVAL, "larger, unknown field set");
	kfdsig_emu_destroy(emu);
}

static void test_code_buf(void)
{
	const struct kfdsig_target *t = kfdsig_target_by_name("gfx90a");
	struct kfdsig_fence f = { .slot_va = 0x7f0000000000ull + 8 * 5, .event_id = 5 };
	static uint8_t mem[8192];
	NEWER(kfdsig_code_buf) big;
	uint32_t d[KFDSIG_SIGNAL_MAX_DW];

	memset(&big, 0, sizeof(big));
	big.o.sz = sizeof(big);
	big.o.cpu = mem;
	big.o.va = 0x100000;
	big.o.size = sizeof(mem);
	CHECK(kfdsig_emit_signal(t, KFDSIG_SIGNAL_SHADER, &f, &big.o, d, KFDSIG_SIGNAL_MAX_DW) > 0,
	      "larger, zero tail: %s", kfdsig_last_error());
	big.next_field = 1;
	CHECK_EQ(kfdsig_emit_signal(t, KFDSIG_SIGNAL_SHADER, &f, &big.o, d, KFDSIG_SIGNAL_MAX_DW),
		 -EINVAL, "larger, unknown field set");
	/* an older caller without form and pad_0: the raw form */
	big.o.sz = offsetof(struct kfdsig_code_buf, form);
	big.o.form = 77;
	big.o.used = 0;
	CHECK(kfdsig_emit_signal(t, KFDSIG_SIGNAL_SHADER, &f, &big.o, d, KFDSIG_SIGNAL_MAX_DW) > 0,
	      "smaller sz: %s", kfdsig_last_error());
	big.o.sz = sizeof(big.o);
	CHECK_EQ(kfdsig_emit_signal(t, KFDSIG_SIGNAL_SHADER, &f, &big.o, d, KFDSIG_SIGNAL_MAX_DW),
		 -EINVAL, "the form inside sz is read");
	big.o.form = KFDSIG_SHADER_RAW;
	big.o.sz = 0;
	CHECK_EQ(kfdsig_emit_signal(t, KFDSIG_SIGNAL_SHADER, &f, &big.o, d, KFDSIG_SIGNAL_MAX_DW),
		 -EINVAL, "sz 0");
}

int main(void)
{
	test_queue_opts();
	test_decode();
	test_emu();
	test_kfd_ops();
	test_code_buf();
	return t_result("abi_opts");
}

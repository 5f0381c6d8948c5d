/* SPDX-License-Identifier: MIT */
/*
 * SMI events: the line parser against lines written by hand in the
 * kernel's formats (KFD_EVENT_FMT_* of kfd_ioctl.h), and the backend's SMI
 * client against the emulated one (kfd_smi_events.c): the version gate,
 * the privilege for all processes, the mask, the per-process filter, the
 * 8192-byte FIFO that drops whole lines, poll/read/write semantics, and
 * the release of a client at its fd's last close.
 */
#include <unistd.h>

#include "abi/kfd_ioctl.h"
#include "kfd_util.h"

static void test_parse_golden(void)
{
	struct kfdsig_smi_event e;

	CHECK(kfdsig_smi_parse_line("1 4d2:hipcc_test\n", &e) == 0, "vmfault");
	CHECK(e.type == 1 && e.pid == 1234 && !strcmp(e.task_name, "hipcc_test"), "vmfault data");
	CHECK(kfdsig_smi_parse_line("2 3:1f", &e) == 0, "thermal");
	CHECK(e.throttle_bitmask == 3 && e.throttle_counter == 0x1f, "thermal data");
	CHECK(kfdsig_smi_parse_line("3 5 HANG", &e) == 0 && e.reset_seq == 5 &&
		      !strcmp(e.reset_cause, "HANG"),
	      "pre reset with cause");
	CHECK(kfdsig_smi_parse_line("4 2", &e) == 0 && e.type == 4 && e.reset_seq == 2 &&
		      !e.reset_cause[0],
	      "post reset, older format without cause");
	CHECK(kfdsig_smi_parse_line("5 123456789 -77 @7f00(10) 0->1a2b 0:ffffffff 1", &e) == 0,
	      "migrate start");
	CHECK(e.ns == 123456789 && e.pid == 77 && e.addr == 0x7f00 && e.size == 0x10 &&
		      e.from == 0 && e.to == 0x1a2b && e.prefetch_loc == 0 &&
		      e.preferred_loc == 0xffffffffu && e.trigger == 1,
	      "migrate start data");
	CHECK(kfdsig_smi_parse_line("6 123456790 -77 @7f00(10) 0->1a2b 1 -12", &e) == 0 &&
		      e.trigger == 1 && e.error_code == -12 && e.to == 0x1a2b,
	      "migrate end");
	CHECK(kfdsig_smi_parse_line("7 99 -77 @7f00(1a2b) W", &e) == 0 && e.flag == 'W' &&
		      e.node == 0x1a2b && e.addr == 0x7f00,
	      "page fault start");
	CHECK(kfdsig_smi_parse_line("8 100 -77 @7f00(1a2b) M", &e) == 0 && e.flag == 'M',
	      "page fault end");
	CHECK(kfdsig_smi_parse_line("9 200 -77 1a2b 2", &e) == 0 && e.node == 0x1a2b &&
		      e.trigger == 2 && e.ns == 200,
	      "queue eviction");
	CHECK(kfdsig_smi_parse_line("a 300 -77 1a2b R", &e) == 0 && e.type == 10 && e.flag == 'R',
	      "queue restore rescheduled");
	CHECK(kfdsig_smi_parse_line("b 400 -77 @7f00(10) 1a2b 2", &e) == 0 && e.type == 11 &&
		      e.size == 0x10 && e.node == 0x1a2b && e.trigger == 2,
	      "unmap from gpu");
	CHECK(kfdsig_smi_parse_line("c 4d2 hipcc", &e) == 0 && e.type == 12 && e.pid == 1234 &&
		      !strcmp(e.task_name, "hipcc"),
	      "process start");
	CHECK_EQ(kfdsig_smi_parse_line("zz", &e), -EBADMSG, "no type");
	CHECK_EQ(kfdsig_smi_parse_line("5 garbage", &e), -EBADMSG, "bad migrate line");
	CHECK_EQ(kfdsig_smi_parse_line("1 nocolon", &e), -EBADMSG, "bad vmfault line");
	CHECK_EQ(kfdsig_smi_parse_line("7 99 -77 @7f00(1a2b) W extra", &e), -EBADMSG, "trailing");
	CHECK_EQ(kfdsig_smi_event_by_name("queue_restore"), 10, "name lookup");
	CHECK_EQ(kfdsig_smi_event_by_name("ALL_PROCESS"), 64, "all_process");
	CHECK_EQ(kfdsig_smi_event_by_name("7"), 7, "by number");
	CHECK_EQ(kfdsig_smi_event_by_name("nope"), -ENOENT, "unknown name");
	CHECK(!strcmp(kfdsig_smi_event_name(6), "migrate_end"), "name");
}

static struct kfdsig_emu *smi_emu(const char *targets, bool privileged, uint32_t minor)
{
	struct kfdsig_emu_gpu_desc d[2] = { { .target = targets }, { .target = "gfx1100" } };
	struct kfdsig_emu_config c = { .sz = sizeof(c),
				       .gpus = d,
				       .ngpus = 2,
				       .privileged = privileged,
				       .kfd_major = 1,
				       .kfd_minor = minor,
				       .task_name = "kfdsig-test" };
	struct kfdsig_emu *emu = kfdsig_emu_create(&c);
	T_REQUIRE(emu, "emu");
	return emu;
}

static void test_gates(void)
{
	struct kfdsig_emu *emu = smi_emu("gfx90a", false, 2);
	struct kfdsig_kfd *kfd = t_open(emu);
	struct kfdsig_smi *smi = NULL;

	CHECK_EQ(kfdsig_smi_open(kfd, t_gpu(kfd, 0), KFDSIG_SMI_MASK(1), &smi), -ENOTSUP,
		 "KFD 1.2 has no SMI");
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);

	emu = smi_emu("gfx90a", false, 18);
	kfd = t_open(emu);
	CHECK_EQ(kfdsig_smi_open(kfd, t_gpu(kfd, 0),
				 KFDSIG_SMI_MASK(1) | KFDSIG_SMI_MASK(KFDSIG_SMI_ALL_PROCESS),
				 &smi),
		 -EPERM, "all processes without CAP_SYS_ADMIN");
	CHECK(strstr(kfdsig_last_error(), "CAP_SYS_ADMIN") != NULL, "clear reason");
	CHECK_EQ(kfdsig_smi_open(kfd, 0x4444, KFDSIG_SMI_MASK(1), &smi), -ENOENT, "bad gpu");
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
}

static void test_events(void)
{
	struct kfdsig_emu *emu = smi_emu("gfx942", false, 18);
	struct kfdsig_kfd *kfd = t_open(emu);
	uint32_t g0 = t_gpu(kfd, 0), g1 = t_gpu(kfd, 1);
	struct kfdsig_smi *smi = NULL;
	struct kfdsig_smi_event e;
	KFDSIG_OPTS(kfdsig_emu_smi_args, a);
	pid_t me = getpid();

	CHECK(kfdsig_smi_open(kfd, g0,
			      KFDSIG_SMI_MASK(KFDSIG_SMI_VMFAULT) |
				      KFDSIG_SMI_MASK(KFDSIG_SMI_THERMAL_THROTTLE) |
				      KFDSIG_SMI_MASK(KFDSIG_SMI_PAGE_FAULT_START) |
				      KFDSIG_SMI_MASK(KFDSIG_SMI_QUEUE_RESTORE) |
				      KFDSIG_SMI_MASK(KFDSIG_SMI_GPU_PRE_RESET) |
				      KFDSIG_SMI_MASK(KFDSIG_SMI_GPU_POST_RESET),
			      &smi) == 0,
	      "open");
	T_REQUIRE(smi, "smi");
	CHECK_EQ(kfdsig_smi_read(smi, &e, 0), 0, "nothing yet");
	/* a VM fault of this process: "1 <pid hex>:<task>" */
	CHECK(kfdsig_emu_vm_fault(emu, t_pasid(emu, kfd), g0, 0x1000, 0) >= 0, "fault");
	CHECK_EQ(kfdsig_smi_read(smi, &e, 1000), 1, "vmfault line");
	CHECK(e.type == KFDSIG_SMI_VMFAULT && e.pid == me && !strcmp(e.task_name, "kfdsig-test"),
	      "vmfault: pid and task (%s)", e.line);
	/* thermal, formatted by the emulator, parsed by the backend */
	a.throttle_bitmask = 0x8000000000000001ull;
	a.throttle_counter = 42;
	CHECK_EQ(kfdsig_emu_smi_emit(emu, g0, KFDSIG_SMI_THERMAL_THROTTLE, &a), 1, "one client");
	CHECK_EQ(kfdsig_smi_read(smi, &e, 1000), 1, "thermal line");
	CHECK(e.throttle_bitmask == 0x8000000000000001ull && e.throttle_counter == 42, "thermal");
	/* not in the mask */
	CHECK_EQ(kfdsig_emu_smi_emit(emu, g0, KFDSIG_SMI_MIGRATE_START, &a), 0, "masked out");
	/* another GPU's event */
	CHECK_EQ(kfdsig_emu_smi_emit(emu, g1, KFDSIG_SMI_THERMAL_THROTTLE, &a), 0, "other gpu");
	CHECK_EQ(kfdsig_smi_read(smi, &e, 0), 0, "neither arrives");
	/* page fault of this process vs another process */
	memset(&a, 0, sizeof(a));
	a.sz = sizeof(a);
	a.ns = 5000;
	a.pid = me;
	a.addr = 0x7fff0;
	a.flag = 'W';
	CHECK_EQ(kfdsig_emu_smi_emit(emu, g0, KFDSIG_SMI_PAGE_FAULT_START, &a), 1, "own pid");
	a.pid = me + 1;
	CHECK_EQ(kfdsig_emu_smi_emit(emu, g0, KFDSIG_SMI_PAGE_FAULT_START, &a), 0,
		 "another process's event needs ALL_PROCESS + privilege");
	CHECK_EQ(kfdsig_smi_read(smi, &e, 1000), 1, "page fault line");
	CHECK(e.type == 7 && e.pid == me && e.addr == 0x7fff0 && e.node == g0 && e.flag == 'W' &&
		      e.ns == 5000,
	      "page fault fields (%s)", e.line);
	/* queue restore not rescheduled: the kernel prints %c of 0 (a NUL) */
	a.pid = me;
	a.flag = 0;
	CHECK_EQ(kfdsig_emu_smi_emit(emu, g0, KFDSIG_SMI_QUEUE_RESTORE, &a), 1, "restore");
	CHECK_EQ(kfdsig_smi_read(smi, &e, 1000), 1, "restore line with a NUL byte");
	CHECK(e.type == 10 && e.flag == 0 && e.node == g0 && e.pid == me, "restore fields");
	/* a GPU reset: pre and post lines with the sequence number */
	CHECK(kfdsig_emu_gpu_reset(emu, g0, false) >= 0, "reset");
	CHECK(kfdsig_smi_read(smi, &e, 1000) == 1 && e.type == 3 && e.reset_seq == 1, "pre");
	CHECK(kfdsig_smi_read(smi, &e, 1000) == 1 && e.type == 4 && e.reset_seq == 1, "post");
	/* a new mask replaces the old one */
	CHECK(kfdsig_smi_set_mask(smi, KFDSIG_SMI_MASK(KFDSIG_SMI_MIGRATE_START)) == 0, "mask");
	CHECK_EQ(kfdsig_emu_smi_emit(emu, g0, KFDSIG_SMI_THERMAL_THROTTLE, &a), 0, "now masked");
	kfdsig_smi_close(smi);
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
}

static void test_all_process(void)
{
	struct kfdsig_emu *emu = smi_emu("gfx90a", true, 18);
	struct kfdsig_kfd *kfd = t_open(emu);
	uint32_t g = t_gpu(kfd, 0);
	struct kfdsig_smi *all = NULL, *own = NULL;
	KFDSIG_OPTS(kfdsig_emu_smi_args, a, .pid = getpid() + 1, .ns = 1, .addr = 2, .size = 3);
	struct kfdsig_smi_event e;

	CHECK(kfdsig_smi_open(kfd, g,
			      KFDSIG_SMI_MASK(KFDSIG_SMI_UNMAP_FROM_GPU) |
				      KFDSIG_SMI_MASK(KFDSIG_SMI_ALL_PROCESS),
			      &all) == 0,
	      "privileged: all processes");
	CHECK(kfdsig_smi_open(kfd, g, KFDSIG_SMI_MASK(KFDSIG_SMI_UNMAP_FROM_GPU), &own) == 0,
	      "privileged, own process only");
	CHECK_EQ(kfdsig_emu_smi_emit(emu, g, KFDSIG_SMI_UNMAP_FROM_GPU, &a), 1,
		 "only the ALL_PROCESS client gets another process's event");
	CHECK(kfdsig_smi_read(all, &e, 1000) == 1 && e.pid == a.pid && e.size == 3, "received");
	CHECK_EQ(kfdsig_smi_read(own, &e, 0), 0, "not the other");
	kfdsig_smi_close(all);
	kfdsig_smi_close(own);
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
}

static void test_fifo(void)
{
	struct kfdsig_emu *emu = smi_emu("gfx1030", false, 18);
	struct kfdsig_kfd *kfd = t_open(emu);
	const struct kfdsig_kfd_ops *ops = kfdsig_kfd_ops_of(kfd);
	uint32_t g = t_gpu(kfd, 0);
	struct kfdsig_smi *smi = NULL;
	KFDSIG_OPTS(kfdsig_emu_smi_args, a, .throttle_bitmask = 0xab);
	struct kfdsig_smi_event e;
	struct pollfd pfd;
	char buf[16];
	int delivered = 0, got = 0, in_order = 1;

	CHECK(kfdsig_smi_open(kfd, g, KFDSIG_SMI_MASK(KFDSIG_SMI_THERMAL_THROTTLE), &smi) == 0,
	      "open");
	T_REQUIRE(smi, "smi");
	pfd = (struct pollfd){ .fd = kfdsig_smi_fd(smi), .events = POLLIN };
	CHECK_EQ(ops->poll(ops->ctx, &pfd, 1, 0), 0, "empty: not readable");
	CHECK_EQ(ops->read(ops->ctx, kfdsig_smi_fd(smi), buf, sizeof(buf)), -EAGAIN,
		 "empty read: -EAGAIN, never blocks");
	CHECK_EQ(ops->write(ops->ctx, kfdsig_smi_fd(smi), buf, 4), -EFAULT, "mask needs 8 bytes");
	/* "2 ab:100000\n" .. : 12 bytes each; 8192 / 12 = 682 fit */
	for (int i = 0; i < 1000; i++) {
		a.throttle_counter = 0x100000 + (uint64_t)i;
		delivered += kfdsig_emu_smi_emit(emu, g, KFDSIG_SMI_THERMAL_THROTTLE, &a);
	}
	CHECK_EQ(delivered, 682, "the 8192-byte FIFO holds 682 lines; the rest are dropped");
	CHECK_EQ(ops->poll(ops->ctx, &pfd, 1, 0), 1, "readable");
	while (kfdsig_smi_read(smi, &e, 0) == 1) {
		if (e.throttle_counter != 0x100000 + (uint64_t)got)
			in_order = 0;
		got++;
	}
	CHECK_EQ(got, 682, "every kept line read back");
	CHECK(in_order, "oldest kept, newest dropped, in order");
	CHECK_EQ(ops->poll(ops->ctx, &pfd, 1, 0), 0, "drained: not readable");
	a.throttle_counter = 7;
	CHECK_EQ(kfdsig_emu_smi_emit(emu, g, KFDSIG_SMI_THERMAL_THROTTLE, &a), 1, "room again");
	kfdsig_smi_close(smi);
	/* the fd's last close releases the client (kfd_smi_ev_release) */
	CHECK_EQ(kfdsig_emu_smi_emit(emu, g, KFDSIG_SMI_THERMAL_THROTTLE, &a), 0,
		 "a closed client is gone");
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
}

int main(void)
{
	test_parse_golden();
	test_gates();
	test_events();
	test_all_process();
	test_fifo();
	return t_result("kfd_smi");
}

/* SPDX-License-Identifier: MIT */
/*
 * The emulated kernel's copy_from_user / copy_to_user / access_ok.
 *
 * The kernel never faults on a bad user pointer: access_ok() refuses a
 * range that reaches the kernel half (include/asm-generic/access_ok.h,
 * arch/x86/include/asm/uaccess_64.h: below TASK_SIZE_MAX) and the copy
 * itself returns the number of bytes it could not copy when a page is not
 * mapped, which the ioctls turn into -EFAULT (kfd_chardev.c kfd_ioctl).
 *
 * The emulator lives in the caller's own process, so a bad pointer would
 * crash it. Every user pointer the emulated kernel reads or writes goes
 * through here instead: the copy is done by the real kernel on our behalf
 * with process_vm_readv/process_vm_writev on our own pid (one syscall,
 * about 0.3 us; the kernel walks the page tables and reports a partial
 * copy for an unmapped, PROT_NONE or, for writes, read-only page, exactly
 * the pages copy_to_user would fault on). Where those calls are refused
 * (ENOSYS, EPERM under some seccomp profiles) a pipe does the same job:
 * write(2) from the source address fails with EFAULT when it is not
 * readable, read(2) into the destination when it is not writable.
 *
 * Stacks: the emulated kernel runs on its caller's stack. emu_ioctl()
 * records where its frame starts (emu_uaccess_enter): below it are the
 * emulator's own frames, its kernel stack, which a user pointer must not
 * reach (-EFAULT, as a kernel address would be); above it, up to the top of
 * the thread's stack, is the caller's live stack, mapped and writable, so
 * a range there is copied directly (where callers keep an ioctl's argument
 * struct: SET_EVENT costs 30 ns instead of 500). Other threads' stacks are
 * user memory like any other: a wild pointer into one of the emulator's
 * own threads (an engine, a sleeping waiter) is written as the kernel
 * would write the user's memory, a limit the kernel does not have.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "emu/emu_priv.h"

/*
 * The end of the user half. x86-64: TASK_SIZE_MAX with 4-level paging,
 * (1 << 47) - PAGE_SIZE (arch/x86/include/asm/page_64_types.h); with
 * 5-level paging the kernel accepts up to 1 << 56, which the emulator
 * does not model (an address there fails the copy with -EFAULT anyway,
 * since nothing is mapped there without a hint). arm64: 1 << VA_BITS,
 * 48 being the common configuration (arch/arm64/include/asm/memory.h).
 * Other architectures: the 47-bit bound, the safe choice.
 */
#if defined(__aarch64__)
#define EMU_USER_TOP (1ull << 48)
#else
#define EMU_USER_TOP ((1ull << 47) - 4096)
#endif

bool emu_access_ok(uint64_t addr, uint64_t len)
{
	return len <= EMU_USER_TOP && addr <= EMU_USER_TOP - len;
}

/* The calling thread's stack, [stack_lo, stack_top); stack_top 0: not
 * looked up yet, 1: unknown (no fast path). */
static __thread uintptr_t stack_lo, stack_top;
/* The emulated kernel's own frames on this thread start below this address
 * (emu_uaccess_enter); 0: not inside an ioctl. */
static __thread uintptr_t entry_frame;

static void stack_lookup(void)
{
	pthread_attr_t at;
	void *lo;
	size_t sz;

	stack_top = 1;
	if (!pthread_getattr_np(pthread_self(), &at)) {
		if (!pthread_attr_getstack(&at, &lo, &sz)) {
			stack_lo = (uintptr_t)lo;
			stack_top = (uintptr_t)lo + sz;
		}
		pthread_attr_destroy(&at);
	}
}

void emu_uaccess_enter(uintptr_t frame)
{
	if (!stack_top)
		stack_lookup();
	/* the frame pointer, then the saved frame pointer and the return
	 * address: the call into the emulated kernel */
	entry_frame = frame >= stack_lo && frame < stack_top ? frame + 2 * sizeof(void *) : 0;
}

void emu_uaccess_leave(void)
{
	entry_frame = 0;
}

/* Where a user range lies on the calling thread's stack. The part below
 * the ioctl's entry holds the emulated kernel's own frames (its kernel
 * stack, which no user pointer reaches): KSTACK. Above it, up to the top,
 * is the caller's live stack: mapped and writable, copied directly
 * (LIVE). Anything else: ELSEWHERE. */
enum { ELSEWHERE, LIVE, KSTACK };

static int stack_class(uintptr_t a, size_t len)
{
	uintptr_t here = (uintptr_t)__builtin_frame_address(0);

	if (!stack_top)
		stack_lookup();
	/* here must be on that stack: not on a coroutine's or a signal
	 * stack, where the bounds would mean nothing */
	if (stack_top == 1 || here < stack_lo || here >= stack_top || !entry_frame)
		return ELSEWHERE;
	if (a < entry_frame && a + len > stack_lo && a < stack_top)
		return KSTACK;
	if (a >= entry_frame && a < stack_top && len <= stack_top - a)
		return LIVE;
	return ELSEWHERE;
}

/* A byte copy the sanitizers do not check: the user's stack is user
 * memory (the kernel reads whatever is there), not the emulator's. */
__attribute__((no_sanitize("address"))) static void raw_copy(void *dst, const void *src, size_t len)
{
	volatile unsigned char *d = dst;
	const volatile unsigned char *s = src;

	while (len--)
		*d++ = *s++;
}

enum { UA_UNKNOWN, UA_VM, UA_PIPE };
static int ua_mode = UA_UNKNOWN;
static pthread_mutex_t pipe_lock = PTHREAD_MUTEX_INITIALIZER;
static int pipe_fd[2] = { -1, -1 };

/* Copy with the pipe (fallback): src -> pipe -> dst, at most the pipe's
 * capacity per round. Returns 0 or -EFAULT; the pipe is left empty. */
static int pipe_copy(void *dst, const void *src, size_t len)
{
	char scratch[512];
	int r = 0;

	pthread_mutex_lock(&pipe_lock);
	if (pipe_fd[0] < 0 && pipe2(pipe_fd, O_CLOEXEC | O_NONBLOCK)) {
		pthread_mutex_unlock(&pipe_lock);
		return -EFAULT;
	}
	while (len && !r) {
		size_t chunk = len < 4096 ? len : 4096; /* PIPE_BUF: atomic */
		ssize_t w = write(pipe_fd[1], src, chunk), got;

		if (w <= 0) {
			r = -EFAULT;
			break;
		}
		got = read(pipe_fd[0], dst, (size_t)w);
		if (got != w) {
			/* dst not writable: drain what the pipe still holds */
			r = -EFAULT;
			while (read(pipe_fd[0], scratch, sizeof(scratch)) > 0)
				;
			break;
		}
		src = (const char *)src + w;
		dst = (char *)dst + w;
		len -= (size_t)w;
	}
	pthread_mutex_unlock(&pipe_lock);
	return r;
}

/* System-call copies made by this thread (emu_uaccess_syscopies). */
static __thread unsigned long syscopies;

unsigned long emu_uaccess_syscopies(void)
{
	return syscopies;
}

static int vm_copy(void *dst, const void *src, size_t len, bool to_user)
{
	struct iovec local = { to_user ? (void *)src : dst, len };
	struct iovec remote = { to_user ? dst : (void *)src, len };
	int mode = __atomic_load_n(&ua_mode, __ATOMIC_RELAXED);
	ssize_t n;

	syscopies++;

	if (mode != UA_PIPE) {
		n = to_user ? process_vm_writev(getpid(), &local, 1, &remote, 1, 0)
			    : process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
		if (n == (ssize_t)len)
			return 0;
		if (n >= 0 || errno == EFAULT)
			return -EFAULT;
		if (errno != ENOSYS && errno != EPERM && errno != EACCES)
			return -EFAULT;
		__atomic_store_n(&ua_mode, UA_PIPE, __ATOMIC_RELAXED);
	}
	return pipe_copy(dst, src, len);
}

int emu_copy_from_user(void *dst, const void *usrc, size_t len)
{
	if (!len)
		return 0;
	if (!emu_access_ok((uintptr_t)usrc, len))
		return -EFAULT;
	switch (stack_class((uintptr_t)usrc, len)) {
	case LIVE:
		raw_copy(dst, usrc, len);
		return 0;
	case KSTACK:
		return -EFAULT;
	}
	return vm_copy(dst, usrc, len, false);
}

int emu_copy_to_user(void *udst, const void *src, size_t len)
{
	if (!len)
		return 0;
	if (!emu_access_ok((uintptr_t)udst, len))
		return -EFAULT;
	switch (stack_class((uintptr_t)udst, len)) {
	case LIVE:
		raw_copy(udst, src, len);
		return 0;
	case KSTACK:
		return -EFAULT;
	}
	return vm_copy(udst, src, len, true);
}

int emu_uaccess_force_pipe(bool on)
{
	__atomic_store_n(&ua_mode, on ? UA_PIPE : UA_UNKNOWN, __ATOMIC_RELAXED);
	return 0;
}

/* Is [addr, addr+len) covered by mappings with read and write permission?
 * From /proc/self/maps (a snapshot: the kernel pins userptr pages at
 * allocation, amdgpu_ttm_tt_get_user_pages, and fails for a hole). */
bool emu_user_range_rw(uint64_t addr, uint64_t len)
{
	uint64_t next = addr, end = addr + len;
	char line[512];
	FILE *f;

	if (!len || !emu_access_ok(addr, len))
		return false;
	f = fopen("/proc/self/maps", "re");
	if (!f)
		return false;
	while (next < end && fgets(line, sizeof(line), f)) {
		unsigned long long lo, hi;
		char perm[5];

		if (sscanf(line, "%llx-%llx %4s", &lo, &hi, perm) != 3)
			continue;
		if (hi <= next || lo > next)
			continue; /* maps is sorted: a gap shows as lo > next */
		if (perm[0] != 'r' || perm[1] != 'w')
			break;
		next = hi;
	}
	fclose(f);
	return next >= end;
}

/* SPDX-License-Identifier: MIT */
/*
 * Per-event wake-ups: as in kfd_events.c, where each event has
 * its own wait queue and a waiter on several events is queued on each, a
 * signal wakes only the threads waiting on that event. Seven threads sleep
 * on seven other events while one thread is signalled K times: the
 * process's count of ended sleeps grows by about K, not 8K (what one
 * condition variable per process gives). Wait-all over several events and
 * destroy-while-waiting still wake their waiter; a wait-all sleeps until
 * its last event is signalled.
 */
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include "emu/emu_priv.h"
#include "abi/kfd_ioctl.h"
#include "kfd_util.h"

#define IDLE 7
#define K 200

struct idle_arg {
	struct kfdsig_kfd *kfd;
	uint32_t id;
	int rc;
	enum kfdsig_wait_result res;
};

static void *idle_waiter(void *p)
{
	struct idle_arg *a = p;

	a->rc = t_wait1(a->kfd, a->id, NULL, KFDSIG_WAIT_INFINITE, &a->res);
	return NULL;
}

static uint64_t wakeups(struct kfdsig_emu *emu, int pasid)
{
	struct emu_proc *p = emu_proc_get(emu, pasid);
	uint64_t n;

	T_REQUIRE(p, "proc");
	n = __atomic_load_n(&p->wait_wakeups, __ATOMIC_RELAXED);
	emu_proc_put(p);
	return n;
}

/* Sleeping waiters queued on event @id (none until the thread sleeps). */
static int queued(struct kfdsig_emu *emu, int pasid, uint32_t id)
{
	struct emu_proc *p = emu_proc_get(emu, pasid);
	int n = 0;

	T_REQUIRE(p, "proc");
	pthread_mutex_lock(&p->lock);
	if (id < KFD_SIGNAL_EVENT_LIMIT && p->slots_ev[id])
		for (struct emu_waiter *w = p->slots_ev[id]->waiters; w; w = w->next)
			n++;
	pthread_mutex_unlock(&p->lock);
	emu_proc_put(p);
	return n;
}

static void wait_queued(struct kfdsig_emu *emu, int pasid, uint32_t id, int want)
{
	for (int i = 0; i < 10000 && queued(emu, pasid, id) < want; i++)
		usleep(100);
	T_REQUIRE(queued(emu, pasid, id) >= want, "waiter on %u queued", id);
}

struct pp_arg {
	struct kfdsig_kfd *kfd;
	uint32_t id;
	int fails;
	volatile int done;
};

static void *pong(void *p)
{
	struct pp_arg *a = p;

	for (int i = 0; i < K; i++) {
		enum kfdsig_wait_result res;
		if (t_wait1(a->kfd, a->id, NULL, 5000, &res) || res != KFDSIG_WAIT_COMPLETE)
			a->fails++;
		__atomic_store_n(&a->done, i + 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

static void test_no_herd(void)
{
	struct kfdsig_emu *emu = t_emu("gfx90a");
	struct kfdsig_kfd *kfd = t_open(emu);
	int pasid = t_pasid(emu, kfd);
	struct idle_arg ia[IDLE];
	pthread_t it[IDLE], pt;
	struct pp_arg pa = { .kfd = kfd };
	uint64_t before, grew;

	for (int i = 0; i < IDLE; i++) {
		ia[i] = (struct idle_arg){ .kfd = kfd,
					   .id = t_event(kfd, KFDSIG_EVENT_SIGNAL, true).id };
		T_REQUIRE(!pthread_create(&it[i], NULL, idle_waiter, &ia[i]), "thread");
	}
	for (int i = 0; i < IDLE; i++)
		wait_queued(emu, pasid, ia[i].id, 1);
	pa.id = t_event(kfd, KFDSIG_EVENT_SIGNAL, true).id;
	before = wakeups(emu, pasid);
	T_REQUIRE(!pthread_create(&pt, NULL, pong, &pa), "thread");
	for (int i = 0; i < K; i++) {
		/* signal once the ponger sleeps again, then wait for its
		 * round to end */
		wait_queued(emu, pasid, pa.id, 1);
		CHECK(kfdsig_kfd_event_set(kfd, pa.id) == 0, "set");
		while (__atomic_load_n(&pa.done, __ATOMIC_ACQUIRE) <= i)
			usleep(10);
	}
	pthread_join(pt, NULL);
	grew = wakeups(emu, pasid) - before;
	CHECK_EQ(pa.fails, 0, "every signal woke the ponger");
	/* One sleep ends per signal; a spurious futex return now and then is
	 * allowed, a wake of the seven idle threads per signal is not. */
	CHECK(grew <= K + K / 4, "%llu sleeps ended for %d signals with %d idle waiters",
	      (unsigned long long)grew, K, IDLE);
	for (int i = 0; i < IDLE; i++)
		CHECK(kfdsig_kfd_event_set(kfd, ia[i].id) == 0, "release idle %d", i);
	for (int i = 0; i < IDLE; i++) {
		pthread_join(it[i], NULL);
		CHECK(ia[i].rc == 0 && ia[i].res == KFDSIG_WAIT_COMPLETE, "idle %d completes", i);
	}
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
}

struct all_arg {
	struct kfdsig_kfd *kfd;
	uint32_t ids[3];
	bool all;
	int rc;
	enum kfdsig_wait_result res;
};

static void *waiter3(void *p)
{
	struct all_arg *a = p;
	struct kfdsig_wait_entry e[3] = { { .event_id = a->ids[0] },
					  { .event_id = a->ids[1] },
					  { .event_id = a->ids[2] } };

	a->rc = kfdsig_kfd_wait(a->kfd, e, 3, a->all, 5000, &a->res);
	return NULL;
}

/* A waiter queued on three events: wait-all completes after the third
 * signal only; destroying one of them fails the wait. */
static void test_multi(void)
{
	struct kfdsig_emu *emu = t_emu("gfx90a");
	struct kfdsig_kfd *kfd = t_open(emu);
	int pasid = t_pasid(emu, kfd);
	struct all_arg a = { .kfd = kfd, .all = true };
	pthread_t t;

	for (int i = 0; i < 3; i++)
		a.ids[i] = t_event(kfd, KFDSIG_EVENT_SIGNAL, false).id;
	T_REQUIRE(!pthread_create(&t, NULL, waiter3, &a), "thread");
	for (int i = 0; i < 3; i++)
		wait_queued(emu, pasid, a.ids[i], 1);
	CHECK(kfdsig_kfd_event_set(kfd, a.ids[2]) == 0 && kfdsig_kfd_event_set(kfd, a.ids[0]) == 0,
	      "two of three");
	wait_queued(emu, pasid, a.ids[1], 1); /* still waiting on the third */
	CHECK(kfdsig_kfd_event_set(kfd, a.ids[1]) == 0, "third");
	pthread_join(t, NULL);
	CHECK(a.rc == 0 && a.res == KFDSIG_WAIT_COMPLETE, "wait-all completes: rc %d res %d", a.rc,
	      a.res);

	for (int i = 0; i < 3; i++)
		kfdsig_kfd_event_reset(kfd, a.ids[i]);
	a.all = false;
	T_REQUIRE(!pthread_create(&t, NULL, waiter3, &a), "thread");
	wait_queued(emu, pasid, a.ids[1], 1);
	CHECK(kfdsig_kfd_event_destroy(kfd, a.ids[1]) == 0, "destroy while waiting");
	pthread_join(t, NULL);
	CHECK(a.rc == -EIO && a.res == KFDSIG_WAIT_FAIL, "the wait fails: rc %d res %d", a.rc,
	      a.res);
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
}

#define NALL 64

struct many_arg {
	struct kfdsig_kfd *kfd;
	struct kfdsig_wait_entry e[NALL];
	int rc;
	enum kfdsig_wait_result res;
};

static void *waiter_many(void *p)
{
	struct many_arg *a = p;

	a->rc = kfdsig_kfd_wait(a->kfd, a->e, NALL, true, 5000, &a->res);
	return NULL;
}

/* Wait-all on NALL events signalled one at a time: its thread wakes when
 * the last one is signalled, not at each signal (it would only find the
 * condition false and sleep again); destroying one of the events still
 * wakes it, and the wait fails. */
static void test_all_wakes_once(void)
{
	struct kfdsig_emu *emu = t_emu("gfx90a");
	struct kfdsig_kfd *kfd = t_open(emu);
	int pasid = t_pasid(emu, kfd);
	static struct many_arg a;
	uint64_t before, grew;
	pthread_t t;

	a = (struct many_arg){ .kfd = kfd };
	for (int i = 0; i < NALL; i++)
		a.e[i].event_id = t_event(kfd, KFDSIG_EVENT_SIGNAL, false).id;
	T_REQUIRE(!pthread_create(&t, NULL, waiter_many, &a), "thread");
	for (int i = 0; i < NALL; i++)
		wait_queued(emu, pasid, a.e[i].event_id, 1);
	before = wakeups(emu, pasid);
	for (int i = 0; i < NALL; i++) {
		CHECK(kfdsig_kfd_event_set(kfd, a.e[i].event_id) == 0, "set %d", i);
		usleep(200); /* time to wake and sleep again, were it woken */
	}
	pthread_join(t, NULL);
	grew = wakeups(emu, pasid) - before;
	CHECK(a.rc == 0 && a.res == KFDSIG_WAIT_COMPLETE, "wait-all completes: rc %d res %d", a.rc,
	      a.res);
	CHECK(grew <= 2, "%llu sleeps ended for a wait-all on %d events", (unsigned long long)grew,
	      NALL);

	for (int i = 0; i < NALL; i++)
		kfdsig_kfd_event_reset(kfd, a.e[i].event_id);
	T_REQUIRE(!pthread_create(&t, NULL, waiter_many, &a), "thread");
	for (int i = 0; i < NALL; i++)
		wait_queued(emu, pasid, a.e[i].event_id, 1);
	CHECK(kfdsig_kfd_event_set(kfd, a.e[0].event_id) == 0, "one set");
	CHECK(kfdsig_kfd_event_destroy(kfd, a.e[5].event_id) == 0, "destroy while waiting");
	pthread_join(t, NULL);
	CHECK(a.rc == -EIO && a.res == KFDSIG_WAIT_FAIL, "wait-all fails: rc %d res %d", a.rc,
	      a.res);
	kfdsig_kfd_close(kfd);
	kfdsig_emu_destroy(emu);
}

int main(void)
{
	test_no_herd();
	test_multi();
	test_all_wakes_once();
	return t_result("kfd_wakeup");
}

/* SPDX-License-Identifier: MIT */
/*
 * Global wave sync (GWS): ds_gws_init, ds_gws_barrier, ds_gws_sema_v,
 * _sema_br, _sema_p and _sema_release_all, the GDS-only DS operations on
 * the 64 barrier/semaphore resources of the GWS a queue holds
 * (ALLOC_QUEUE_GWS), as the ISA manuals describe them (Vega / MI200 ISA,
 * "DS_GWS_*": the resource is offset0[5:0] plus M0[21:16]; the value is
 * DATA0 of the first active lane):
 *  - init: the resource's counter takes the value;
 *  - barrier: a wave that finds the counter above 0 decrements it and waits;
 *    one that finds it at 0 or below flips the resource's flag, which
 *    releases every waiting wave, sets the counter to the value (the
 *    waves of the next round less one) and goes on;
 *  - sema_v adds 1 to the counter, sema_br the value; sema_p waits until
 *    the counter is above 0 and takes 1; sema_release_all releases every
 *    wave waiting in sema_p.
 * A waiting wave leaves its host thread to the other waves of its
 * workgroup (state SQK_GWS_WAIT); the thread sleeps only when none of them
 * can run. The resources live as long as the queue's GWS, across
 * dispatches (ROCclr initialises the barrier with a dispatch of its own
 * before each cooperative one). Without GWS on the queue the operations are
 * an illegal instruction; so is a barrier in a dispatch whose workgroups
 * cannot all be resident at once (more workgroups than host threads), which
 * would wait forever.
 *
 * A semaphore needs no such thing: the wave that holds it runs, so a
 * dispatch of any size goes on while one of its waves does (kfdtest's
 * KFDGWSTest.Semaphore: 1024x16x16 one-wave workgroups take a semaphore
 * of 1 in turn). A thread whose workgroup only waits parks; when every
 * thread of the dispatch is parked and no wave of theirs is released, no
 * wave can ever release one (a release is an instruction a running wave
 * executes), and the dispatch fails with an illegal instruction, which
 * reaches the program as the queue's error (a hardware queue would hang
 * there instead; the workgroups not yet started could only be waves that
 * the emulator holds back, so it says so).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "emu/sq/sqk_exec.h"

#define GWS_RESOURCES 64

struct sqk_gws {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct {
		int64_t counter;
		bool flag;
		/* bumped whenever a waiting wave may go on: the barrier's flag
		 * flips, the semaphore rises or is released */
		uint64_t gen, release;
	} res[GWS_RESOURCES];
};

struct sqk_gws *sqk_gws_new(void)
{
	struct sqk_gws *g = calloc(1, sizeof(*g));

	if (!g)
		return NULL;
	pthread_mutex_init(&g->lock, NULL);
	pthread_cond_init(&g->cond, NULL);
	return g;
}

void sqk_gws_free(struct sqk_gws *g)
{
	if (!g)
		return;
	pthread_cond_destroy(&g->cond);
	pthread_mutex_destroy(&g->lock);
	free(g);
}

int sqk_exec_gws(struct sqk_wave *w, const struct sqk_insn *in)
{
	struct sqk_run *r = w->r;
	struct sqk_gws *g = r->d->gws;
	uint64_t ex = sqk_exec(w);
	unsigned rid = ((w->s[SQK_M0] >> 16 & 63) + (in->offset0 & 63)) & 63;
	int64_t value = 0;
	int rc = 0;

	if (!g)
		return sqk_fail(w, in, -ENOTSUP, "GWS operation on a queue without GWS");
	if (!ex)
		return 0;
	if (in->op == K_ds_gws_init || in->op == K_ds_gws_barrier || in->op == K_ds_gws_sema_br)
		value = w->v[(size_t)in->src[0] * 64 + (unsigned)__builtin_ctzll(ex)];
	if (in->op == K_ds_gws_barrier &&
	    r->groups > __atomic_load_n(r->resident, __ATOMIC_ACQUIRE)) {
		char why[96];

		snprintf(why, sizeof(why), "GWS barrier with %llu workgroups, at most %u resident",
			 (unsigned long long)r->groups, *r->resident);
		return sqk_fail(w, in, -ENOTSUP, why);
	}
	pthread_mutex_lock(&g->lock);
	switch (in->op) {
	case K_ds_gws_init:
		g->res[rid].counter = value;
		break;
	case K_ds_gws_barrier:
		if (g->res[rid].counter <= 0) {
			g->res[rid].flag = !g->res[rid].flag;
			g->res[rid].counter = value;
			g->res[rid].gen++;
			pthread_cond_broadcast(&g->cond);
		} else {
			g->res[rid].counter--;
			w->gws_rid = (uint8_t)rid;
			w->gws_gen = g->res[rid].gen;
			w->gws_p = false;
			w->state = SQK_GWS_WAIT;
			w->pc = in->pc + in->size; /* it goes on after the barrier */
			rc = 1;
		}
		break;
	case K_ds_gws_sema_v:
	case K_ds_gws_sema_br:
		g->res[rid].counter += in->op == K_ds_gws_sema_v ? 1 : value;
		g->res[rid].gen++;
		pthread_cond_broadcast(&g->cond);
		break;
	case K_ds_gws_sema_release_all:
		g->res[rid].release++;
		g->res[rid].gen++;
		pthread_cond_broadcast(&g->cond);
		break;
	case K_ds_gws_sema_p:
		if (w->gws_p && w->gws_rid == rid && g->res[rid].release != w->gws_release) {
			w->gws_p = false; /* released: go on without taking */
		} else if (g->res[rid].counter > 0) {
			g->res[rid].counter--;
			w->gws_p = false;
		} else {
			/* wait, then run the sema_p again (the PC stays) */
			if (!w->gws_p || w->gws_rid != rid)
				w->gws_release = g->res[rid].release;
			w->gws_rid = (uint8_t)rid;
			w->gws_gen = g->res[rid].gen;
			w->gws_p = true;
			w->state = SQK_GWS_WAIT;
			w->pc = in->pc;
			rc = 1;
		}
		break;
	default:
		rc = sqk_fail(w, in, -ENOTSUP, "unimplemented instruction");
	}
	pthread_mutex_unlock(&g->lock);
	return rc;
}

bool sqk_gws_released(const struct sqk_wave *w)
{
	struct sqk_gws *g = w->r->d->gws;
	bool go;

	pthread_mutex_lock(&g->lock);
	go = g->res[w->gws_rid].gen != w->gws_gen;
	pthread_mutex_unlock(&g->lock);
	return go;
}

/* Is a wave of @waves in SQK_GWS_WAIT free to go on (lock held)? */
static bool any_released(const struct sqk_gws *g, const struct sqk_wave *waves, unsigned nw)
{
	for (unsigned i = 0; i < nw; i++)
		if (waves[i].state == SQK_GWS_WAIT &&
		    g->res[waves[i].gws_rid].gen != waves[i].gws_gen)
			return true;
	return false;
}

int sqk_gws_park(struct sqk_run *r, struct sqk_wave *waves, unsigned nw, bool more)
{
	struct sqk_gws *g = r->d->gws;
	struct sqk_gws_waits *gw = r->gws_waits;
	bool stuck = true;
	struct timespec ts;

	pthread_mutex_lock(&g->lock);
	if (any_released(g, waves, nw)) {
		pthread_mutex_unlock(&g->lock);
		return 0;
	}
	gw->t[r->thread].waves = waves;
	gw->t[r->thread].nw = nw;
	gw->t[r->thread].parked = true;
	/* A wave that waits is released only by a wave that runs: with
	 * every thread parked and none of their waves released, nothing
	 * of the dispatch can ever run again. */
	for (unsigned i = 0; i < SQK_GWS_THREADS && stuck; i++)
		if (!gw->t[i].gone &&
		    (!gw->t[i].parked || any_released(g, gw->t[i].waves, gw->t[i].nw)))
			stuck = false;
	if (stuck) {
		gw->t[r->thread].parked = false;
		pthread_mutex_unlock(&g->lock);
		for (unsigned i = 0; i < nw; i++)
			if (waves[i].state == SQK_GWS_WAIT)
				return sqk_fail(
					&waves[i], NULL, -ENOTSUP,
					more ? "GWS wait: every resident workgroup waits, the "
					       "dispatch's other workgroups are not resident"
					     : "GWS wait: every wave of the dispatch waits");
		return -ENOTSUP;
	}
	/* woken by a release or a thread gone, else after 2 ms to look at
	 * the queue's stop */
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += 2000000;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	pthread_cond_timedwait(&g->cond, &g->lock, &ts);
	gw->t[r->thread].parked = false;
	pthread_mutex_unlock(&g->lock);
	return 0;
}

void sqk_gws_gone(struct sqk_run *r, unsigned thread)
{
	struct sqk_gws *g = r->d->gws;

	pthread_mutex_lock(&g->lock);
	r->gws_waits->t[thread].gone = true;
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
}

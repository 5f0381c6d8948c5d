/* SPDX-License-Identifier: MIT */
/*
 * Shared bits of the libhsakmt clients that need a plain signal event.
 */
#ifndef KFDSIG_TEST_CLIENT_HSAKMT_UTIL_H
#define KFDSIG_TEST_CLIENT_HSAKMT_UTIL_H

#include <hsakmt.h>
#include <string.h>

#include "client.h"

/* An auto-reset SIGNAL event with a 64-bit sync variable; NULL on failure. */
static inline HsaEvent *new_event(void)
{
	HsaEventDescriptor d;
	HsaEvent *e = NULL;

	memset(&d, 0, sizeof(d));
	d.EventType = HSA_EVENTTYPE_SIGNAL;
	d.SyncVar.SyncVarSize = sizeof(HSAuint64);
	return hsaKmtCreateEvent(&d, false, false, &e) == HSAKMT_STATUS_SUCCESS ? e : NULL;
}

#endif

/* SPDX-License-Identifier: MIT */
/*
 * The lost wake-up, on purpose: a libhsakmt program writes its event's
 * slot in the signal page (what the GPU's end-of-pipe write does) without
 * the interrupt that would set the event, then sleeps in
 * hsaKmtWaitOnEvent() with an infinite timeout. It hangs; `kfdsig trace`
 * must name the event while it does (the main job's lost-wait row).
 */
#include <stdio.h>
#include <string.h>

#include <hsakmt.h>

int main(void)
{
	HsaEventDescriptor d;
	HsaSystemProperties sp;
	HsaEvent *ev;

	memset(&d, 0, sizeof(d));
	d.EventType = HSA_EVENTTYPE_SIGNAL;
	d.SyncVar.SyncVar.UserData = NULL;
	d.SyncVar.SyncVarSize = sizeof(HSAuint64);
	/* libhsakmt checks node ids against the topology snapshot */
	if (hsaKmtOpenKFD() != HSAKMT_STATUS_SUCCESS ||
	    hsaKmtAcquireSystemProperties(&sp) != HSAKMT_STATUS_SUCCESS ||
	    hsaKmtCreateEvent(&d, false, false, &ev) != HSAKMT_STATUS_SUCCESS) {
		fprintf(stderr, "lost_wakeup: no KFD event\n");
		return 1;
	}
	/* HWData2: the event's slot in the signal page */
	*(volatile uint64_t *)(uintptr_t)ev->EventData.HWData2 = ev->EventId;
	hsaKmtWaitOnEvent(ev, HSA_EVENTTIMEOUT_INFINITE);
	fprintf(stderr, "lost_wakeup: the wait returned\n");
	return 1;
}

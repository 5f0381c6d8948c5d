/* SPDX-License-Identifier: MIT */
/*
 * fork() with both halves using KFD: the child inherits no KFD process
 * (kfd_ioctl refuses the parent's fd in it), opens /dev/kfd itself through
 * libhsakmt and uses its own events; the parent's KFD process and events
 * keep working while and after the child runs.
 */
#include <hsakmt.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "client.h"
#include "hsakmt_util.h"

/* set, then wait: the event's round trip through the KFD */
static int round_trip(HsaEvent *e)
{
	if (hsaKmtSetEvent(e) != HSAKMT_STATUS_SUCCESS)
		return -1;
	if (hsaKmtWaitOnEvent(e, WAIT_TIMEOUT_MS) != HSAKMT_STATUS_SUCCESS)
		return -1;
	return hsaKmtWaitOnEvent(e, 0) == HSAKMT_STATUS_WAIT_TIMEOUT ? 0 : -1;
}

static int child(void)
{
	HsaSystemProperties sp;
	HsaEvent *e[3];

	/* libhsakmt's atfork handler closed its view of the parent's KFD */
	if (hsaKmtOpenKFD() != HSAKMT_STATUS_SUCCESS ||
	    hsaKmtAcquireSystemProperties(&sp) != HSAKMT_STATUS_SUCCESS)
		return 2;
	for (int i = 0; i < 3; i++)
		if (!(e[i] = new_event()) || round_trip(e[i]))
			return 3;
	for (int i = 0; i < 3; i++)
		if (hsaKmtDestroyEvent(e[i]) != HSAKMT_STATUS_SUCCESS)
			return 4;
	return hsaKmtCloseKFD() == HSAKMT_STATUS_SUCCESS ? 0 : 5;
}

int main(void)
{
	HsaSystemProperties sp;
	HsaEvent *e;
	int status = -1;
	pid_t pid;

	REQUIRE(hsaKmtOpenKFD() == HSAKMT_STATUS_SUCCESS, "open");
	REQUIRE(hsaKmtAcquireSystemProperties(&sp) == HSAKMT_STATUS_SUCCESS, "topology");
	e = new_event();
	REQUIRE(e, "parent event");
	CHECK(round_trip(e) == 0, "parent before fork");
	fflush(NULL);
	pid = fork();
	REQUIRE(pid >= 0, "fork");
	if (pid == 0)
		_exit(child());
	CHECK(round_trip(e) == 0, "parent while the child runs");
	REQUIRE(waitpid(pid, &status, 0) == pid, "waitpid");
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status 0x%x", status);
	CHECK(round_trip(e) == 0, "parent after the child");
	CHECK(hsaKmtDestroyEvent(e) == HSAKMT_STATUS_SUCCESS, "destroy");
	CHECK(hsaKmtCloseKFD() == HSAKMT_STATUS_SUCCESS, "close");
	return client_done("hsakmt_fork");
}

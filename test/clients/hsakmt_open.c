/* SPDX-License-Identifier: MIT */
/*
 * libhsakmt open, close and reopen: hsaKmtOpenKFD reads the topology,
 * opens the render nodes through libdrm_amdgpu, asks for the apertures
 * and acquires a VM per GPU. Opening twice is reference counted; closing
 * and opening again must work (the KFD process survives in the kernel).
 */
#include <hsakmt.h>

#include "client.h"

int main(void)
{
	HsaVersionInfo v;

	REQUIRE(hsaKmtOpenKFD() == HSAKMT_STATUS_SUCCESS, "first open");
	CHECK(hsaKmtGetVersion(&v) == HSAKMT_STATUS_SUCCESS, "version");
	CHECK(v.KernelInterfaceMajorVersion == 1, "major %u", v.KernelInterfaceMajorVersion);
	CHECK(hsaKmtOpenKFD() == HSAKMT_STATUS_KERNEL_ALREADY_OPENED, "second open counts");
	CHECK(hsaKmtCloseKFD() == HSAKMT_STATUS_SUCCESS, "close one reference");
	CHECK(hsaKmtCloseKFD() == HSAKMT_STATUS_SUCCESS, "close the last");
	CHECK(hsaKmtCloseKFD() == HSAKMT_STATUS_KERNEL_IO_CHANNEL_NOT_OPENED, "close when closed");
	for (int i = 0; i < 3; i++) {
		HsaSystemProperties sp;

		REQUIRE(hsaKmtOpenKFD() == HSAKMT_STATUS_SUCCESS, "reopen %d", i);
		CHECK(hsaKmtAcquireSystemProperties(&sp) == HSAKMT_STATUS_SUCCESS, "props %d", i);
		CHECK(sp.NumNodes >= 2, "nodes %u", sp.NumNodes);
		CHECK(hsaKmtReleaseSystemProperties() == HSAKMT_STATUS_SUCCESS, "release");
		CHECK(hsaKmtCloseKFD() == HSAKMT_STATUS_SUCCESS, "close %d", i);
	}
	return client_done("hsakmt_open");
}

/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdio.h>

#include "core/internal.h"

/* One message per thread, so concurrent callers never see each other's. */
static _Thread_local char last_error[256];

int set_error(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
	return -err;
}

const char *kfdsig_last_error(void)
{
	return last_error;
}

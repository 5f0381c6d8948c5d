/* SPDX-License-Identifier: MIT */
/* The CLI's message functions for the input fuzzer: format, print nothing. */
#include <stdarg.h>
#include <stdio.h>

#include "cli.h"

const char *cli_prog = "kfdsig decode";

static int quiet(int ret, const char *fmt, va_list ap)
{
	char buf[512];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	return ret;
}

int cli_usage_error(const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = quiet(EXIT_USAGE, fmt, ap);
	va_end(ap);
	return r;
}

int cli_error(const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = quiet(EXIT_FAILURE, fmt, ap);
	va_end(ap);
	return r;
}

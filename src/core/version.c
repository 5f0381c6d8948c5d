/* SPDX-License-Identifier: MIT */
#include "core/internal.h"

#define STR_(x) #x
#define STR(x) STR_(x)

unsigned int kfdsig_version(void)
{
	return KFDSIG_VERSION_NUMBER;
}

const char *kfdsig_version_string(void)
{
	return STR(KFDSIG_VERSION_MAJOR) "." STR(KFDSIG_VERSION_MINOR) "." STR(
		KFDSIG_VERSION_PATCH);
}

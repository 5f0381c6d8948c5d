/* SPDX-License-Identifier: MIT */
/*
 * kfdsig_lint_amd_signal(): the rules of an AQL completion signal, each kept
 * by a signal kfdsig_amd_signal_prepare() builds and broken by one field
 * changed by hand (ROCr amd_hsa_signal.h layout; a KFD event's slot is
 * page + 8 * id, kfd_events.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <kfdsig/kfdsig.h>

#define PAGE 0x7f0000000000ull
#define SIG_VA 0x7f0000100000ull

static int failed;
static char rules[512];
static unsigned int nfind, nerr;

#define CHECK(c)                                                                \
	do {                                                                    \
		if (!(c)) {                                                     \
			fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #c); \
			failed = 1;                                             \
		}                                                               \
	} while (0)

static int collect(void *ctx, const struct kfdsig_finding *f)
{
	(void)ctx;
	strncat(rules, f->rule, sizeof(rules) - strlen(rules) - 2);
	strcat(rules, " ");
	nfind++;
	if (f->severity == KFDSIG_SEV_ERROR)
		nerr++;
	if (f->offset != 12 || !strstr(f->message, "completion signal 0x7f0000100000"))
		failed = 1;
	return 0;
}

static int stop(void *ctx, const struct kfdsig_finding *f)
{
	(void)f;
	++*(int *)ctx;
	return 7;
}

static const char *lint(const struct kfdsig_amd_signal *s, uint64_t page)
{
	rules[0] = 0;
	nfind = nerr = 0;
	CHECK(kfdsig_lint_amd_signal(s, SIG_VA, page, 12, collect, NULL) == 0);
	return rules;
}

int main(void)
{
	struct kfdsig_amd_signal good, s;
	int calls = 0;

	CHECK(kfdsig_amd_signal_prepare(&good, PAGE, 42, 1) == 0);
	CHECK(!strcmp(lint(&good, PAGE), "") && nfind == 0);
	CHECK(!strcmp(lint(&good, 0), "") && nfind == 0);

	s = good;
	s.event_mailbox_ptr = 0;
	CHECK(!strcmp(lint(&s, PAGE), "aql-signal-no-mailbox ") && nerr == 0);
	s = good;
	s.event_id = 0;
	CHECK(strstr(lint(&s, PAGE), "aql-signal-id-zero ") && nerr >= 1);
	s = good;
	s.event_id = 4096;
	CHECK(strstr(lint(&s, 0), "aql-signal-id-range ") && nerr == 1);
	s = good;
	s.event_id = 43;
	CHECK(!strcmp(lint(&s, PAGE), "aql-signal-wrong-slot ") && nerr == 1);
	CHECK(!strcmp(lint(&s, 0), "") && nfind == 0); /* no page: slot unchecked */
	s = good;
	s.event_mailbox_ptr += 4;
	CHECK(strstr(lint(&s, 0), "aql-signal-unaligned-mailbox ") != NULL);
	s = good;
	s.kind = KFDSIG_AMD_SIGNAL_KIND_DOORBELL;
	CHECK(!strcmp(lint(&s, PAGE), "aql-signal-kind ") && nerr == 0);

	/* A callback's non-zero return stops the rules and comes back. */
	s = good;
	s.event_id = 0;
	s.kind = 0;
	CHECK(kfdsig_lint_amd_signal(&s, SIG_VA, PAGE, 12, stop, &calls) == 7 && calls == 1);

	CHECK(kfdsig_lint_amd_signal(NULL, SIG_VA, PAGE, 0, collect, NULL) == -EINVAL);
	CHECK(kfdsig_lint_amd_signal(&good, SIG_VA, PAGE, 0, NULL, NULL) == -EINVAL);
	CHECK(strstr(kfdsig_last_error(), "kfdsig_lint_amd_signal") != NULL);
	return failed;
}

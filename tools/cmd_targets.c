/* SPDX-License-Identifier: MIT */
/* kfdsig targets: print the generation table. */
#include <getopt.h>
#include <string.h>

#include "cli.h"

static void help(FILE *f)
{
	fprintf(f, "usage: kfdsig targets [-j] [TARGET...]\n\n"
		   "List every GPU target kfdsig knows (or only the named ones) with the facts\n"
		   "that decide its encodings:\n"
		   "  version   KFD gfx_target_version; GC and SDMA IP versions\n"
		   "  irq       amdkfd interrupt handler class (cik, v9, v9_4_3, v10, v11)\n"
		   "  eop/sdma/sq  event-id bits the CP end-of-pipe, SDMA trap and\n"
		   "            s_sendmsg interrupts carry to the kernel\n"
		   "  pm4       RELEASE_MEM form; sdma-hdr: SDMA FENCE header form\n"
		   "  db        doorbell bytes and write-pointer width (32 wraps, 64 grows)\n"
		   "  ctx0-drop when a CP interrupt with context id 0 is dropped\n"
		   "            (always, never, or from MEC firmware >= N)\n"
		   "  bit24     whether a context id with bit 24 set is dropped\n"
		   "  sdma-min  minimum SDMA submission in dwords\n"
		   "  llvm22    whether LLVM 22 compiles for the target (no: removed from\n"
		   "            LLVM in the release the JSON's llvm_removed_in names, or\n"
		   "            first accepted in the one its llvm_added_in names)\n\n"
		   "  -j, --json  one JSON array of objects, every field by name\n");
	cli_help_exit(f, "when the output cannot be written");
}

static void ctx0_rule(const struct kfdsig_target *t, char *buf, size_t n)
{
	if (t->ctx0_drop_mec_fw == KFDSIG_CTX0_NEVER_DROPPED)
		snprintf(buf, n, "never");
	else if (t->ctx0_drop_mec_fw == 0)
		snprintf(buf, n, "always");
	else
		snprintf(buf, n, "fw>=0x%x", t->ctx0_drop_mec_fw);
}

static void print_json(FILE *f, const struct kfdsig_target *t, bool first)
{
	fprintf(f, "%s\n  {\"name\": ", first ? "" : ",");
	cli_json_str(f, t->name);
	fprintf(f, ", \"product\": ");
	cli_json_str(f, t->product);
	fprintf(f,
		", \"gfx_target_version\": %u, \"gc_ip\": \"%u.%u.%u\", "
		"\"sdma_ip\": \"%u.%u.%u\", \"family\": \"%s\", \"irq_class\": \"%s\", "
		"\"cp_eop_id_bits\": %u, \"sdma_trap_id_bits\": %u, \"sq_msg_id_bits\": %u, "
		"\"pm4_fence\": \"%s\", \"sdma_fence_hdr\": \"%s\", \"doorbell_size\": %u, "
		"\"doorbell_slice\": %u, \"wptr_bits\": %u, \"eop_buffer_size\": %u, "
		"\"sdma_min_submit_dw\": %u, \"ctx0_drop_mec_fw\": ",
		t->gfx_target_version, t->gc_ip[0], t->gc_ip[1], t->gc_ip[2], t->sdma_ip[0],
		t->sdma_ip[1], t->sdma_ip[2], kfdsig_family_name(t->family),
		kfdsig_irq_class_name(t->irq_class), t->cp_eop_id_bits, t->sdma_trap_id_bits,
		t->sq_msg_id_bits, kfdsig_pm4_fence_form_name(t->pm4_fence),
		kfdsig_sdma_fence_hdr_name(t->sdma_fence_hdr), t->doorbell_size, t->doorbell_slice,
		t->wptr_bits, t->eop_buffer_size, t->sdma_min_submit_dw);
	if (t->ctx0_drop_mec_fw == KFDSIG_CTX0_NEVER_DROPPED)
		fprintf(f, "null");
	else
		fprintf(f, "%u", t->ctx0_drop_mec_fw);
	fprintf(f, ", \"drops_ctxid_bit24\": %s, \"apu\": %s, \"llvm_removed_in\": ",
		t->drops_ctxid_bit24 ? "true" : "false", t->apu ? "true" : "false");
	if (t->llvm_removed_in)
		fprintf(f, "%u", t->llvm_removed_in);
	else
		fprintf(f, "null");
	fprintf(f, ", \"llvm_added_in\": ");
	if (t->llvm_added_in)
		fprintf(f, "%u}", t->llvm_added_in);
	else
		fprintf(f, "null}");
}

static void print_row(FILE *f, const struct kfdsig_target *t)
{
	char gc[16], sdma[16], ctx0[16];

	snprintf(gc, sizeof(gc), "%u.%u.%u", t->gc_ip[0], t->gc_ip[1], t->gc_ip[2]);
	snprintf(sdma, sizeof(sdma), "%u.%u.%u", t->sdma_ip[0], t->sdma_ip[1], t->sdma_ip[2]);
	ctx0_rule(t, ctx0, sizeof(ctx0));
	fprintf(f,
		"%-8s %7u %-8s %-7s %-6s %3u %4u %2u %-10s %-6s %-8s %u/%-2u %-10s %-5s %8u %-6s  "
		"%s\n",
		t->name, t->gfx_target_version, gc, kfdsig_family_name(t->family),
		kfdsig_irq_class_name(t->irq_class), t->cp_eop_id_bits, t->sdma_trap_id_bits,
		t->sq_msg_id_bits, kfdsig_pm4_fence_form_name(t->pm4_fence), sdma,
		kfdsig_sdma_fence_hdr_name(t->sdma_fence_hdr), t->doorbell_size, t->wptr_bits, ctx0,
		t->drops_ctxid_bit24 ? "yes" : "no", t->sdma_min_submit_dw,
		(t->llvm_removed_in && t->llvm_removed_in <= 22) || t->llvm_added_in > 22 ? "no"
											  : "yes",
		t->product);
}

const struct option cmd_targets_options[] = {
	CLI_GLOBAL_LONGOPTS,
	{ 0 },
};
const char cmd_targets_shortopts[] = CLI_GLOBAL_SHORTOPTS;
const struct cli_complete cmd_targets_complete[] = {
	{ "", "@target" },
	{ 0 },
};

int cmd_targets(int argc, char **argv)
{
	const struct kfdsig_target *sel[64];
	size_t nsel = 0;
	bool json;
	int c;

	while ((c = cli_getopt(argc, argv, cmd_targets_shortopts, cmd_targets_options)) != -1) {
		switch (c) {
		default:
			return cli_opt_default(c, help);
		}
	}
	for (int i = optind; i < argc; i++) {
		if (nsel == sizeof(sel) / sizeof(sel[0]))
			return cli_usage_error("too many targets named");
		if (!(sel[nsel++] = cli_target(argv[i])))
			return EXIT_USAGE;
	}
	json = cli_json();
	if (!nsel)
		for (size_t i = 0; i < kfdsig_target_count() && nsel < 64; i++)
			sel[nsel++] = kfdsig_target_at(i);

	if (json) {
		fputc('[', stdout);
		for (size_t i = 0; i < nsel; i++)
			print_json(stdout, sel[i], i == 0);
		fputs("\n]\n", stdout);
	} else {
		printf("%-8s %7s %-8s %-7s %-6s %3s %4s %2s %-10s %-6s %-8s %-4s %-10s %-5s %8s "
		       "%-6s  "
		       "%s\n",
		       "target", "version", "gc", "family", "irq", "eop", "sdma", "sq", "pm4",
		       "sdma", "sdma-hdr", "db", "ctx0-drop", "bit24", "sdma-min", "llvm22",
		       "product");
		for (size_t i = 0; i < nsel; i++)
			print_row(stdout, sel[i]);
	}
	return cli_close_output(stdout) ? EXIT_FAILURE : 0;
}

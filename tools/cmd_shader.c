/* SPDX-License-Identifier: MIT */
/* kfdsig shader: print or write a target's shader signal stub. */
#include <getopt.h>
#include <inttypes.h>
#include <errno.h>
#include <string.h>

#include "cli.h"

enum shader_format { SF_ASM, SF_HEX, SF_BIN, SF_ELF, SF_C, SF_INFO, SF_JSON };

static void help(FILE *f)
{
	fprintf(f,
		"usage: kfdsig shader -t T [-e N (--slot-va ADDR | --signal-page ADDR) | --trap]\n"
		"                     [-f asm|hex|bin|elf|c|info|json | -j] [-o FILE]\n\n"
		"Print the shader stub that stores 1 into event N's slot of the KFD signal page,\n"
		"makes the store visible at system scope and raises s_sendmsg(MSG_INTERRUPT)\n"
		"with the full event id in m0. The stubs were assembled with LLVM 22 and are\n"
		"embedded in the library: no LLVM is needed here.\n\n"
		"  -t, --target T        GPU target (kfdsig targets lists them), e.g. gfx90a\n"
		"  -e, --event N         event id, 1..4095: patched into the raw stub\n"
		"      --slot-va ADDR    GPU address of the slot (with --event)\n"
		"      --signal-page ADDR  GPU address of the signal page; slot = ADDR + 8*N\n"
		"  -f, --format FMT      asm (default): the assembly source of the target's "
		"family\n"
		"                        hex: the raw stub as little-endian dwords, one per line\n"
		"                        bin: the raw stub's bytes\n"
		"                        c: the raw stub as a C array, with its patch offsets\n"
		"                        elf: the code object (kernel arguments {u64 slot_va;\n"
		"                             u32 event_id}; --event does not apply)\n"
		"                        info: sizes, offsets and the registers a dispatch sets\n"
		"                        json: the same as -j\n"
		"  -j, --json            one JSON object: the info, the raw stub's dwords\n"
		"                        (patched with --event) and the assembly source\n"
		"  -o, --output FILE     write there instead of stdout\n"
		"      --trap            the trap stub instead: s_trap 3 (llvm.debugtrap), then\n"
		"                        s_endpgm, kernel kfdsig_trap of the same code object.\n"
		"                        Under a debugger that enabled KFD's trap interface the\n"
		"                        runtime's trap handler reports it as EC_QUEUE_WAVE_TRAP\n"
		"                        on the wave's queue (kfdsig debug prints it); without\n"
		"                        one the wave steps over it. Nothing to patch: no "
		"--event\n\n"
		"Without --event the raw stub keeps its placeholder literals. An id wider than\n"
		"the target's s_sendmsg bits (8 on gfx8) is accepted with a note: KFD receives\n"
		"its low bits and wakes the first signalled event whose id has the same low\n"
		"bits (id mod 256, + 256, ... on gfx8): this one only while no lower one of\n"
		"them is signalled.\n");
	cli_help_exit(f, "when the target has no stub or the output cannot be written");
}

static bool parse_format(const char *s, enum shader_format *out)
{
	static const char *const names[] = {
		[SF_ASM] = "asm", [SF_HEX] = "hex",   [SF_BIN] = "bin",	  [SF_ELF] = "elf",
		[SF_C] = "c",	  [SF_INFO] = "info", [SF_JSON] = "json",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(s, names[i])) {
			*out = (enum shader_format)i;
			return true;
		}
	}
	cli_usage_error("--format: '%s' is not one of asm, hex, bin, elf, c, info, json", s);
	return false;
}

static uint32_t word(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void print_info(FILE *f, const struct kfdsig_shader_stub *co,
		       const struct kfdsig_shader_stub *raw)
{
	static const char *const patch_names[] = { "slot_lo", "slot_hi", "event_id" };

	fprintf(f, "target %s, family %s (%s), assembled for %s by LLVM %s\n", co->target->name,
		co->family, co->source_name, co->processor, co->llvm_version);
	fprintf(f, "s_sendmsg id bits: %u\n", co->sq_id_bits);
	fprintf(f,
		"code object: %zu bytes, e_flags 0x%x, entry at file offset 0x%zx (%zu bytes), "
		"kernel descriptor at file offset 0x%x\n",
		co->size, co->elf_flags, co->entry_offset, co->code_size, co->kd_offset);
	fprintf(f, "  kernarg_size %u, user SGPRs %u, wave%u, rsrc1 0x%08x rsrc2 0x%08x",
		co->regs.kernarg_size, co->regs.user_sgprs, co->regs.wave_size, co->regs.pgm_rsrc1,
		co->regs.pgm_rsrc2);
	if (co->regs.has_rsrc3)
		fprintf(f, " rsrc3 0x%08x", co->regs.pgm_rsrc3);
	fprintf(f,
		"\nraw: %zu bytes (%zu of instructions), user SGPRs %u, wave%u, rsrc1 0x%08x "
		"rsrc2 0x%08x",
		raw->size, raw->code_size, raw->regs.user_sgprs, raw->regs.wave_size,
		raw->regs.pgm_rsrc1, raw->regs.pgm_rsrc2);
	if (raw->regs.has_rsrc3)
		fprintf(f, " rsrc3 0x%08x", raw->regs.pgm_rsrc3);
	fputc('\n', f);
	for (int i = 0; i < KFDSIG_SHADER_NPATCH; i++)
		if (raw->patch_offset[i] != KFDSIG_SHADER_NO_OFFSET)
			fprintf(f, "  patch %-8s at byte %u of the raw stub\n", patch_names[i],
				raw->patch_offset[i]);
	if ((unsigned)raw->form & KFDSIG_SHADER_TRAP)
		fprintf(f, "trap stub: s_trap %u, no kernel arguments, nothing to patch\n",
			KFDSIG_SHADER_TRAP_ID);
}

static void json_regs(FILE *f, const struct kfdsig_shader_regs *r)
{
	fprintf(f,
		"{\"kernarg_size\": %u, \"user_sgprs\": %u, \"wave_size\": %u, "
		"\"pgm_rsrc1\": %u, \"pgm_rsrc2\": %u, \"pgm_rsrc3\": ",
		r->kernarg_size, r->user_sgprs, r->wave_size, r->pgm_rsrc1, r->pgm_rsrc2);
	if (r->has_rsrc3)
		fprintf(f, "%u}", r->pgm_rsrc3);
	else
		fprintf(f, "null}");
}

static void print_json(FILE *f, const struct kfdsig_shader_stub *co,
		       const struct kfdsig_shader_stub *raw, const uint8_t *code, bool patched,
		       uint32_t event_id, uint64_t slot_va)
{
	fprintf(f, "{\"stub\": \"%s\", \"target\": ",
		((unsigned)co->form & KFDSIG_SHADER_TRAP) ? "trap" : "signal");
	cli_json_str(f, co->target->name);
	fprintf(f, ", \"family\": ");
	cli_json_str(f, co->family);
	fprintf(f, ", \"source_name\": ");
	cli_json_str(f, co->source_name);
	fprintf(f, ", \"processor\": ");
	cli_json_str(f, co->processor);
	fprintf(f, ", \"llvm_version\": ");
	cli_json_str(f, co->llvm_version);
	fprintf(f, ", \"sq_id_bits\": %u, \"event_id\": ", co->sq_id_bits);
	if (patched)
		fprintf(f, "%u, \"slot_va\": %" PRIu64 ", \"kfd_id\": %u", event_id, slot_va,
			kfdsig_shader_kfd_id(co->target, event_id));
	else
		fprintf(f, "null, \"slot_va\": null, \"kfd_id\": null");
	fprintf(f,
		", \"code_object\": {\"size\": %zu, \"elf_flags\": %u, \"entry_offset\": %zu, "
		"\"code_size\": %zu, \"kd_offset\": %u, \"regs\": ",
		co->size, co->elf_flags, co->entry_offset, co->code_size, co->kd_offset);
	json_regs(f, &co->regs);
	fprintf(f, "}, \"raw\": {\"size\": %zu, \"code_size\": %zu, \"patch_offsets\": ", raw->size,
		raw->code_size);
	if (raw->patch_offset[0] == KFDSIG_SHADER_NO_OFFSET)
		fprintf(f, "null");
	else
		fprintf(f, "{\"slot_lo\": %u, \"slot_hi\": %u, \"event_id\": %u}",
			raw->patch_offset[0], raw->patch_offset[1], raw->patch_offset[2]);
	fprintf(f, ", \"regs\": ");
	json_regs(f, &raw->regs);
	fprintf(f, ", \"dwords\": [");
	for (size_t i = 0; i + 4 <= raw->size; i += 4)
		fprintf(f, "%s%u", i ? ", " : "", word(code + i));
	fprintf(f, "]}, \"source\": ");
	cli_json_str(f, co->source);
	fprintf(f, "}\n");
}

static int write_out(FILE *f, enum shader_format fmt, const struct kfdsig_shader_stub *co,
		     const struct kfdsig_shader_stub *raw, const uint8_t *code, bool patched,
		     uint32_t event_id, uint64_t slot_va)
{
	bool trap = ((unsigned)raw->form & KFDSIG_SHADER_TRAP) != 0;

	switch (fmt) {
	case SF_JSON:
		print_json(f, co, raw, code, patched, event_id, slot_va);
		break;
	case SF_ASM:
		fputs(co->source, f);
		break;
	case SF_INFO:
		print_info(f, co, raw);
		break;
	case SF_ELF:
		if (fwrite(co->bytes, 1, co->size, f) != co->size)
			return cli_error("write error: %s", strerror(errno ? errno : EIO));
		break;
	case SF_BIN:
		if (fwrite(code, 1, raw->size, f) != raw->size)
			return cli_error("write error: %s", strerror(errno ? errno : EIO));
		break;
	case SF_HEX:
		for (size_t i = 0; i + 4 <= raw->size; i += 4)
			fprintf(f, "0x%08x\n", word(code + i));
		break;
	case SF_C:
		fprintf(f, "/* %s shader %s stub (raw form, family %s, LLVM %s, kfdsig %s)",
			co->target->name, trap ? "trap" : "signal", co->family, co->llvm_version,
			kfdsig_version_string());
		if (patched)
			fprintf(f, ": event %u, slot 0x%" PRIx64, event_id, slot_va);
		fprintf(f, " */\n");
		if (trap)
			fprintf(f, "/* s_trap %u (llvm.debugtrap): no literals */\n",
				KFDSIG_SHADER_TRAP_ID);
		else
			fprintf(f,
				"/* literals at byte offsets: slot_lo %u, slot_hi %u, event_id %u "
				"*/\n",
				raw->patch_offset[0], raw->patch_offset[1], raw->patch_offset[2]);
		fprintf(f, "/* COMPUTE_PGM_RSRC1 0x%08x, RSRC2 0x%08x", raw->regs.pgm_rsrc1,
			raw->regs.pgm_rsrc2);
		if (raw->regs.has_rsrc3)
			fprintf(f, ", RSRC3 0x%08x", raw->regs.pgm_rsrc3);
		fprintf(f, ", wave%u */\n", raw->regs.wave_size);
		fprintf(f, "static const uint32_t kfdsig_%s_%s[%zu] = {\n",
			trap ? "trap" : "signal", co->target->name, raw->size / 4);
		for (size_t i = 0; i + 4 <= raw->size; i += 4) {
			size_t k = i / 4;

			fprintf(f, "%s0x%08x,%s", k % 4 ? " " : "\t", word(code + i),
				(k % 4 == 3 || i + 4 == raw->size) ? "\n" : "");
		}
		fprintf(f, "};\n");
		break;
	}
	return 0;
}

enum { OPT_SLOT_VA = 256, OPT_SIGNAL_PAGE, OPT_TRAP };

const struct option cmd_shader_options[] = {
	{ "target", required_argument, NULL, 't' },
	{ "event", required_argument, NULL, 'e' },
	{ "slot-va", required_argument, NULL, OPT_SLOT_VA },
	{ "signal-page", required_argument, NULL, OPT_SIGNAL_PAGE },
	{ "format", required_argument, NULL, 'f' },
	{ "output", required_argument, NULL, 'o' },
	{ "trap", no_argument, NULL, OPT_TRAP },
	CLI_GLOBAL_LONGOPTS,
	{ 0 },
};
const char cmd_shader_shortopts[] = "t:e:f:o:" CLI_GLOBAL_SHORTOPTS;
const struct cli_complete cmd_shader_complete[] = {
	{ "target", "@target" },
	{ "format", "asm hex bin elf c info json" },
	{ "output", "@file" },
	{ 0 },
};

int cmd_shader(int argc, char **argv)
{
	const char *target = NULL, *output = NULL;
	enum shader_format fmt = SF_ASM;
	bool have_event = false, have_slot = false, have_page = false, trap = false, binary;
	unsigned kind;
	struct kfdsig_shader_stub co, raw;
	const struct kfdsig_target *t;
	uint64_t slot_va = 0, page = 0;
	uint32_t event_id = 0;
	uint8_t code[4096];
	FILE *out;
	int c, ret;

	while ((c = cli_getopt(argc, argv, cmd_shader_shortopts, cmd_shader_options)) != -1) {
		switch (c) {
		case 't':
			target = optarg;
			break;
		case 'e':
			if (!cli_parse_event(optarg, &event_id))
				return EXIT_USAGE;
			have_event = true;
			break;
		case OPT_SLOT_VA:
			if (!cli_parse_u64("--slot-va", optarg, UINT64_MAX, &slot_va))
				return EXIT_USAGE;
			have_slot = true;
			break;
		case OPT_SIGNAL_PAGE:
			if (!cli_parse_u64("--signal-page", optarg, UINT64_MAX, &page))
				return EXIT_USAGE;
			have_page = true;
			break;
		case 'f':
			if (!parse_format(optarg, &fmt))
				return EXIT_USAGE;
			break;
		case 'o':
			output = optarg;
			break;
		case OPT_TRAP:
			trap = true;
			break;
		default:
			return cli_opt_default(c, help);
		}
	}
	ret = cli_no_operands(argc, argv);
	if (ret)
		return ret;
	if (fmt == SF_JSON)
		cli_g.json = true;
	if (cli_json())
		fmt = SF_JSON;
	if (!target)
		return cli_usage_error("--target is required (kfdsig targets lists them)");
	if (trap && (have_event || have_slot || have_page))
		return cli_usage_error("--trap: the trap stub has nothing to patch (no --event, "
				       "--slot-va or --signal-page)");
	if (have_slot && have_page)
		return cli_usage_error("give --slot-va or --signal-page, not both");
	if (have_event != (have_slot || have_page))
		return cli_usage_error("--event and --slot-va (or --signal-page) go together");
	if (have_event && (fmt == SF_ASM || fmt == SF_ELF || fmt == SF_INFO))
		return cli_usage_error("--event patches the raw stub: use --format hex, bin or c "
				       "(the code object takes kernel arguments)");
	if (!(t = cli_target(target)))
		return EXIT_USAGE;
	kind = trap ? KFDSIG_SHADER_TRAP : 0;
	if (kfdsig_shader_stub(t, (enum kfdsig_shader_form)(KFDSIG_SHADER_CODE_OBJECT | kind),
			       &co) ||
	    kfdsig_shader_stub(t, (enum kfdsig_shader_form)(KFDSIG_SHADER_RAW | kind), &raw))
		return cli_error("%s", kfdsig_last_error());
	if (raw.size > sizeof(code))
		return cli_error("raw stub of %zu bytes is too large", raw.size);
	memcpy(code, raw.bytes, raw.size);
	if (have_event) {
		if (have_page) {
			if (page > UINT64_MAX - 8ull * event_id)
				return cli_usage_error("--signal-page: page + 8 * event overflows");
			slot_va = kfdsig_slot_va(page, event_id);
		}
		ret = kfdsig_shader_patch(&raw, code, sizeof(code), slot_va, event_id);
		if (ret < 0)
			return cli_usage_error("%s", kfdsig_last_error());
		if (ret == KFDSIG_SHADER_PARTIAL_ID)
			cli_note("note: %s s_sendmsg carries %u id bits: KFD receives %u and "
				 "wakes the first signalled event with those low bits, event %u "
				 "only while no lower one (%u, ...) is signalled",
				 t->name, raw.sq_id_bits, kfdsig_shader_kfd_id(t, event_id),
				 event_id, kfdsig_shader_kfd_id(t, event_id));
	}

	binary = fmt == SF_BIN || fmt == SF_ELF;
	if (!(out = cli_open_output(output, binary)))
		return binary && !output ? EXIT_USAGE : EXIT_FAILURE;
	ret = write_out(out, fmt, &co, &raw, code, have_event, event_id, slot_va);
	if (ret) {
		/* write_out() has said why: no second message for the same
		 * failure from the close */
		if (out == stdout)
			clearerr(stdout);
		else
			fclose(out);
		return ret;
	}
	if (cli_close_output(out))
		ret = EXIT_FAILURE;
	return ret;
}

/* SPDX-License-Identifier: MIT */
/*
 * kfdsig completion: the bash completion script, generated from the command
 * table (kfdsig.c) and each command's getopt and completion tables, with
 * the target names of the generation table, the suite's case names and the
 * SMI event names built in. The build writes it to
 * share/bash-completion/completions/kfdsig; `kfdsig completion commands`
 * and `kfdsig completion options CMD` print the tables themselves (the
 * man-page test checks every option is documented).
 */
#include <ctype.h>
#include <string.h>

#include "cli.h"
#include "suite/suite.h"

static void help(FILE *f)
{
	fprintf(f, "usage: kfdsig completion [bash | commands | options COMMAND]\n\n"
		   "  bash              print the bash completion script (the default);\n"
		   "                    load it with: source <(kfdsig completion bash)\n"
		   "  commands          the commands, one per line\n"
		   "  options COMMAND   the command's own options (not the global ones), one\n"
		   "                    per line: the short form first when there is one\n");
	cli_help_exit(f, "when the output cannot be written");
}

const struct option cmd_completion_options[] = {
	CLI_GLOBAL_LONGOPTS,
	{ 0 },
};
const char cmd_completion_shortopts[] = CLI_GLOBAL_SHORTOPTS;
const struct cli_complete cmd_completion_complete[] = {
	{ "", "bash commands options" },
	{ 0 },
};

static bool is_global(const struct option *o)
{
	for (const struct option *g = cmd_completion_options; g->name; g++)
		if (!strcmp(g->name, o->name))
			return true;
	return false;
}

/* The short option of a long one, or 0. */
static int short_of(const struct cmd *c, const struct option *o)
{
	if (o->flag || o->val <= 0 || o->val > 127 || !isalnum(o->val))
		return 0;
	for (const char *p = c->shortopts; *p; p++)
		if (*p == o->val)
			return o->val;
	return 0;
}

static const char *values_of(const struct cmd *c, const char *opt)
{
	for (const struct cli_complete *v = c->complete; v && v->opt; v++)
		if (!strcmp(v->opt, opt))
			return v->values;
	if (!strcmp(opt, "emulate"))
		return "@target-list";
	return NULL;
}

static const struct cmd *find_cmd(const char *name)
{
	for (size_t i = 0; i < cli_ncmds; i++)
		if (!strcmp(cli_cmds[i].name, name))
			return &cli_cmds[i];
	return NULL;
}

static void print_options(const struct cmd *c)
{
	for (const struct option *o = c->options; o->name; o++) {
		int s = short_of(c, o);

		if (is_global(o))
			continue;
		if (s)
			printf("-%c ", s);
		printf("--%s\n", o->name);
	}
}

static void words(const char *name, void (*each)(FILE *f))
{
	printf("_kfdsig_%s='", name);
	each(stdout);
	printf("'\n");
}

static void each_target(FILE *f)
{
	for (size_t i = 0; i < kfdsig_target_count(); i++)
		fprintf(f, "%s%s", i ? " " : "", kfdsig_target_at(i)->name);
}

static void each_case(FILE *f)
{
	size_t n;
	const struct suite_case *const *cs = suite_cases(&n);

	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? " " : "", suite_case_name(cs[i]));
}

static void each_smi_event(FILE *f)
{
	for (uint32_t t = KFDSIG_SMI_VMFAULT; t <= KFDSIG_SMI_PROCESS_END; t++)
		fprintf(f, "%s ", kfdsig_smi_event_name(t));
	fprintf(f, "all_process");
}

static void each_command(FILE *f)
{
	for (size_t i = 0; i < cli_ncmds; i++)
		fprintf(f, "%s ", cli_cmds[i].name);
	fprintf(f, "help");
}

static void each_global(FILE *f)
{
	for (const struct option *o = cmd_completion_options; o->name; o++) {
		int s = short_of(&cli_cmds[0], o);

		if (s)
			fprintf(f, "-%c ", s);
		fprintf(f, "--%s ", o->name);
	}
}

/* The value spec of an option of @c, as the script's case pattern. */
static void print_command_case(const struct cmd *c)
{
	const char *operands = values_of(c, "");

	printf("  %s)\n    opts='", c->name);
	for (const struct option *o = c->options; o->name; o++) {
		int s = short_of(c, o);

		if (s)
			printf("-%c ", s);
		printf("--%s ", o->name);
	}
	printf("'\n    case $opt in\n");
	for (const struct option *o = c->options; o->name; o++) {
		int s = short_of(c, o);
		const char *v = values_of(c, o->name);

		if (o->has_arg == no_argument)
			continue;
		printf("    ");
		if (s)
			printf("-%c|", s);
		printf("--%s) spec='%s'; takes=1 ;;\n", o->name, v ? v : "");
	}
	printf("    esac\n    operands='%s'\n    ;;\n", operands ? operands : "");
}

static void print_bash(void)
{
	printf("# bash completion for kfdsig, generated from its command table by\n"
	       "# 'kfdsig completion bash' (kfdsig %s). Needs no bash-completion helpers.\n",
	       kfdsig_version_string());
	words("commands", each_command);
	words("globals", each_global);
	words("targets", each_target);
	words("cases", each_case);
	words("smi_events", each_smi_event);
	printf("\n"
	       "# _kfdsig_reply SPEC WORD: COMPREPLY for a value (words, or @target,\n"
	       "# @target-list, @case, @smi-event, @file, @command)\n"
	       "_kfdsig_reply() {\n"
	       "  local spec=$1 cur=$2 pre=''\n"
	       "  case $spec in\n"
	       "  '') COMPREPLY=() ;;\n"
	       "  @target) COMPREPLY=($(compgen -W \"$_kfdsig_targets\" -- \"$cur\")) ;;\n"
	       "  @case) COMPREPLY=($(compgen -W \"$_kfdsig_cases\" -- \"$cur\")) ;;\n"
	       "  @file) COMPREPLY=($(compgen -f -- \"$cur\")) ;;\n"
	       "  @command) COMPREPLY=($(compgen -c -- \"$cur\")) ;;\n"
	       "  @target-list | @smi-event)\n"
	       "    # --emulate ...,smi=EVENT[+EVENT...]: the SMI event names\n"
	       "    if [[ $spec == @target-list && ${cur##*,} == smi=* ]]; then\n"
	       "      local last=${cur##*[=+]}\n"
	       "      COMPREPLY=($(compgen -P \"${cur%%\"$last\"}\" -W \"$_kfdsig_smi_events\" "
	       "-- \"$last\"))\n"
	       "      return\n"
	       "    fi\n"
	       "    [[ $cur == *,* ]] && pre=${cur%%,*},\n"
	       "    if [[ $spec == @smi-event ]]; then spec=$_kfdsig_smi_events\n"
	       "    else spec=\"$_kfdsig_targets all kfd= profile=v6.14 profile=v7.1 profile=v7.3 "
	       "profile=mailbox-free "
	       "privileged smi=\"; fi\n"
	       "    COMPREPLY=($(compgen -P \"$pre\" -W \"$spec\" -- \"${cur##*,}\")) ;;\n"
	       "  *) COMPREPLY=($(compgen -W \"$spec\" -- \"$cur\")) ;;\n"
	       "  esac\n"
	       "}\n\n"
	       "_kfdsig() {\n"
	       "  local cur=${COMP_WORDS[COMP_CWORD]} prev='' cmd='' opt='' spec='' opts='' "
	       "operands='' takes=0 i w c n=0\n"
	       "  COMPREPLY=()\n"
	       "  ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}\n"
	       "  # the command: the first word that is neither an option nor --emulate's "
	       "value\n"
	       "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
	       "    w=${COMP_WORDS[i]}\n"
	       "    case $w in\n"
	       "    --emulate) ((i++)); [[ ${COMP_WORDS[i]} == = ]] && ((i++)) ;;\n"
	       "    -*) ;;\n"
	       "    *) cmd=$w; break ;;\n"
	       "    esac\n"
	       "  done\n"
	       "  # a unique prefix names a command\n"
	       "  if [[ -n $cmd ]]; then\n"
	       "    for c in $_kfdsig_commands; do\n"
	       "      [[ $c == \"$cmd\" ]] && { n=1; w=$c; break; }\n"
	       "      [[ $c == \"$cmd\"* ]] && { ((n++)); w=$c; }\n"
	       "    done\n"
	       "    ((n == 1)) && cmd=$w\n"
	       "    [[ $cmd == help ]] && { COMPREPLY=($(compgen -W \"$_kfdsig_commands\" -- "
	       "\"$cur\")); return; }\n"
	       "  fi\n"
	       "  # exec/debug -- PROGRAM ARGS: the program, then its own completion (or files)\n"
	       "  if [[ $cmd == exec || $cmd == debug ]]; then\n"
	       "    for ((i = 1; i < COMP_CWORD; i++)); do\n"
	       "      [[ ${COMP_WORDS[i]} == -- ]] || continue\n"
	       "      if ((COMP_CWORD == i + 1)); then COMPREPLY=($(compgen -c -- \"$cur\"))\n"
	       "      elif declare -F _command_offset >/dev/null; then _command_offset $((i + 1))\n"
	       "      else COMPREPLY=($(compgen -f -- \"$cur\")); fi\n"
	       "      return\n"
	       "    done\n"
	       "  fi\n"
	       "  # the option whose value is being completed: --opt=VAL, --opt VAL, -o VAL\n"
	       "  if [[ $cur == = ]]; then opt=$prev; cur=''\n"
	       "  elif [[ $prev == = ]] && ((COMP_CWORD > 1)); then opt=${COMP_WORDS[COMP_CWORD "
	       "- 2]}\n"
	       "  elif [[ $cur == --*=* ]]; then opt=${cur%%%%=*}; cur=${cur#*=}\n"
	       "  elif [[ $prev == -* ]]; then opt=$prev; fi\n"
	       "  case $cmd in\n");
	for (size_t i = 0; i < cli_ncmds; i++)
		print_command_case(&cli_cmds[i]);
	printf("  *)\n"
	       "    opts=\"$_kfdsig_globals --version -V\"\n"
	       "    case $opt in --emulate) spec=@target-list; takes=1 ;; esac\n"
	       "    operands=\"$_kfdsig_commands\"\n"
	       "    ;;\n"
	       "  esac\n"
	       "  if ((takes)); then\n"
	       "    _kfdsig_reply \"$spec\" \"$cur\"\n"
	       "  elif [[ $cur == -* ]]; then\n"
	       "    COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
	       "  else\n"
	       "    _kfdsig_reply \"$operands\" \"$cur\"\n"
	       "  fi\n"
	       "}\n"
	       "complete -F _kfdsig kfdsig\n");
}

int cmd_completion(int argc, char **argv)
{
	const char *what = "bash";
	int c;

	while ((c = cli_getopt(argc, argv, cmd_completion_shortopts, cmd_completion_options)) !=
	       -1) {
		return cli_opt_default(c, help);
	}
	if (optind < argc)
		what = argv[optind++];
	if (!strcmp(what, "bash") && optind == argc) {
		print_bash();
	} else if (!strcmp(what, "commands") && optind == argc) {
		for (size_t i = 0; i < cli_ncmds; i++)
			printf("%s\n", cli_cmds[i].name);
	} else if (!strcmp(what, "options") && optind + 1 == argc) {
		const struct cmd *cmd = find_cmd(argv[optind]);

		if (!cmd)
			return cli_usage_error("unknown command '%s'", argv[optind]);
		print_options(cmd);
	} else {
		return cli_usage_error("give bash, commands, or options COMMAND");
	}
	return cli_close_output(stdout) ? EXIT_FAILURE : 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - the tracefuse daemon: options, schemas, mount, FUSE loop.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "daemon.h"
#include "filter/filter.h"
#include "hist/hist.h"
#include "trigger/trigger.h"
#include "fs/access.h"
#include "fs/files.h"
#include "fs/fuse_ops.h"
#include "source/source.h"
#include "source/inject.h"
#include "run.h"
#include "cli/cli.h"
#include "source/trace_marker.h"

static const char usage_text[] =
"Usage: tracefuse [OPTIONS] MOUNTPOINT\n"
"       tracefuse run [OPTIONS] -- COMMAND [ARG...]\n"
"       tracefuse export --perfetto OUT [--snapshot] [--instance NAME] MOUNT\n"
"       tracefuse metrics [--listen ADDR:PORT] MOUNT\n"
"       tracefuse hist --json PATH\n"

"\n"
"Presents the Linux tracefs event interface (events/, set_event,\n"
"trace, trace_marker, error_log, ...) at MOUNTPOINT.\n"
"\n"
"Options:\n"
"  -f, --foreground     stay in the foreground (default: daemonize)\n"
"  -d, --debug          FUSE debug output (implies -f)\n"
"  -o OPT[,OPT...]      mount options: tracefs's uid=N, gid=N (the\n"
"                       tree's owner and group; default: the user\n"
"                       who mounts) and mode=OCTAL (the top\n"
"                       directory's, default 0700), and FUSE's, e.g.\n"
"                       allow_other (other users reach the tree; the\n"
"                       kernel then checks their permissions:\n"
"                       default_permissions is implied)\n"
"      --source SRC     an event source, repeatable: kernel (the\n"
"                       host's tracepoints), replay:FILE[,speed=S]\n"
"                       [,loop=N][,start=read] (a trace.dat; start=read\n"
"                       waits for the first read of trace or hist),\n"
"                       inject:FILE (text events, - for stdin), none\n"
"                       (trace_marker and tracefuse-inject only).\n"
"                       Default: kernel where the host's tracefs is\n"
"                       usable, else the bundled sample trace\n"
"  -e, --event SYS[:EVENT]  enable events before the first record\n"
"      --formats DIR    load event formats from DIR (a copy of\n"
"                       tracefs's events/) instead of the host's tracefs\n"
"                       or the formats bundled with tracefuse\n"
"      --cpus N         present N CPUs (default: the host's online\n"
"                       CPUs); events of other CPUs go to CPU (cpu % N)\n"
"      --bats-helper    print the path of the Bats helper library\n"
"                       (load it in a .bats file) and exit\n"
"  -h, --help           this text\n"
"  -V, --version        the version\n"
"\n"
"Schemas come from the host's tracefs when it is mounted or mountable\n"
"and readable, otherwise from the bundled formats.  Unmount with\n"
"`fusermount3 -u MOUNTPOINT`, SIGTERM or SIGINT.\n";

#define MAX_SOURCES 8
#define MAX_EVENTS_OPT 64

struct options {
	const char *mountpoint;
	const char *sources[MAX_SOURCES];
	int nr_sources;
	const char *events[MAX_EVENTS_OPT];	/* -e SYSTEM[:EVENT] */
	int nr_events;
	const char *formats;
	const char *fuse_opts;
	int foreground;
	int debug;
	int cpus;
};

static int add_fuse_opts(struct options *opt, const char *more)
{
	static char buf[4000];
	size_t len = strlen(buf);

	if (len + strlen(more) + 2 > sizeof(buf)) {
		fprintf(stderr, "tracefuse: -o options too long\n");
		return -1;
	}
	snprintf(buf + len, sizeof(buf) - len, "%s%s", len ? "," : "", more);
	opt->fuse_opts = buf;
	return 0;
}

/* --bats-helper: where the Bats helper library is (installed with the
 * bundled formats, or the source tree's when running from a build). */
static int print_bats_helper(void)
{
	char path[4300];
	struct stat st;

	snprintf(path, sizeof(path), "%s/bats/tracefuse.bash", tf_data_dir());
	if (stat(path, &st) < 0) {
		fprintf(stderr, "tracefuse: no Bats helper at %s\n", path);
		return 1;
	}
	puts(path);
	return 0;
}

static int parse_args(int argc, char **argv, struct options *opt)
{
	static const struct option longopts[] = {
		{ "foreground", no_argument, NULL, 'f' },
		{ "debug", no_argument, NULL, 'd' },
		{ "source", required_argument, NULL, 'S' },
		{ "event", required_argument, NULL, 'e' },
		{ "formats", required_argument, NULL, 'F' },
		{ "cpus", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "bats-helper", no_argument, NULL, 'B' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(opt, 0, sizeof(*opt));
	while ((c = getopt_long(argc, argv, "fdo:e:hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'f': opt->foreground = 1; break;
		case 'd': opt->debug = opt->foreground = 1; break;
		case 'o':	/* repeatable: -o a -o b is -o a,b */
			if (add_fuse_opts(opt, optarg) < 0)
				return -1;
			break;
		case 'F': opt->formats = optarg; break;
		case 'C':
			opt->cpus = atoi(optarg);
			if (opt->cpus < 1 || opt->cpus > 4096) {
				fprintf(stderr, "tracefuse: --cpus takes 1 to "
					"4096\n");
				return -1;
			}
			break;
		case 'S':
			if (opt->nr_sources == MAX_SOURCES) {
				fprintf(stderr, "tracefuse: at most %d "
					"sources\n", MAX_SOURCES);
				return -1;
			}
			opt->sources[opt->nr_sources++] = optarg;
			break;
		case 'e':
			if (opt->nr_events == MAX_EVENTS_OPT) {
				fprintf(stderr, "tracefuse: at most %d -e "
					"options\n", MAX_EVENTS_OPT);
				return -1;
			}
			opt->events[opt->nr_events++] = optarg;
			break;
		case 'h': fputs(usage_text, stdout); exit(0);
		case 'V': printf("tracefuse %s\n", TF_VERSION); exit(0);
		case 'B': exit(print_bats_helper());
		default:
			fputs(usage_text, stderr);
			return -1;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "tracefuse: %s\n", optind >= argc ?
			"missing MOUNTPOINT" : "too many arguments");
		fputs(usage_text, stderr);
		return -1;
	}
	opt->mountpoint = argv[optind];
	return 0;
}

/* Whether the comma-separated @opts holds @name. */
static bool has_option(const char *opts, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = opts; p && *p; p = strchr(p, ',')) {
		if (*p == ',')
			p++;
		if (strncmp(p, name, n) == 0 && (p[n] == ',' || !p[n]))
			return true;
	}
	return false;
}

/*
 * tracefs's own mount options (uid=, gid=, mode=) are taken out of the
 * -o list; the rest is libfuse's.  With allow_other, other users reach
 * the tree: the kernel then checks their permissions itself, from the
 * attributes tracefuse reports (default_permissions), and does not
 * cache them, so that a chgrp of the top reaches every file at once.
 */
static int mount_options(struct options *opt)
{
	const char *bad = NULL;

	if (!opt->fuse_opts)
		return 0;
	if (tf_access_parse_opts((char *)opt->fuse_opts, &bad) < 0) {
		fprintf(stderr, "tracefuse: -o %s: not a valid value\n", bad);
		return -1;
	}
	if (has_option(opt->fuse_opts, "allow_other") ||
	    has_option(opt->fuse_opts, "allow_root")) {
		if (!has_option(opt->fuse_opts, "default_permissions") &&
		    add_fuse_opts(opt, "default_permissions") < 0)
			return -1;
		tf_fuse_ops_set_attr_timeout(0);
	}
	if (!*opt->fuse_opts)
		opt->fuse_opts = NULL;
	return 0;
}

/* Whether @path is already a tracefuse mount (mountinfo field 5, fstype). */
static int already_mounted(const char *path)
{
	char real[4096], line[8192];
	FILE *f;
	int found = 0;

	if (!realpath(path, real))
		return 0;
	f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char mnt[4096], fstype[256];
		const char *sep = strstr(line, " - ");

		if (sscanf(line, "%*s %*s %*s %*s %4095s", mnt) != 1 || !sep ||
		    sscanf(sep + 3, "%255s", fstype) != 1)
			continue;
		if (strcmp(mnt, real) == 0 &&
		    strcmp(fstype, "fuse.tracefuse") == 0)
			found = 1;
	}
	fclose(f);
	return found;
}

static int check_mountpoint(const char *path)
{
	struct stat st;
	int fd;

	if (stat(path, &st) < 0) {
		fprintf(stderr, "tracefuse: mount point %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "tracefuse: mount point %s: %s\n", path,
			strerror(ENOTDIR));
		return -1;
	}
	if (already_mounted(path)) {
		fprintf(stderr, "tracefuse: mount point %s: %s (tracefuse is "
			"already mounted there)\n", path, strerror(EBUSY));
		return -1;
	}
	/* open, not access(): root passes access() on any file; and a
	 * /dev/fuse that is not the FUSE device (misc 10:229) would only
	 * fail at mount time with a less helpful message.  A user mounts
	 * through fusermount3, which opens the device as that user too */
	fd = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	if (fd < 0 && errno == EACCES && getuid() != 0) {
		fprintf(stderr, "tracefuse: cannot use /dev/fuse: %s (a user's "
			"mount needs the device open to that user, as "
			"Debian's 0666 /dev/fuse is; fusermount3 opens it as "
			"the user)\n", strerror(errno));
		return -1;
	}
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISCHR(st.st_mode) ||
	    st.st_rdev != makedev(10, 229)) {
		fprintf(stderr, "tracefuse: cannot use /dev/fuse: %s (is the "
			"fuse module loaded? a container needs the device "
			"passed in)\n", fd < 0 ? strerror(errno) :
			"not the FUSE device");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

static int run(struct options *opt, struct tf_tracing *t,
	       struct tf_sources *srcs)
{
	struct tf_inject_server *srv = NULL;
	char optbuf[4096];
	char *fargv[5];
	int fargc = 0, ret = 1;
	struct fuse_args args;
	struct fuse_session *se;
	struct fuse_loop_config *cfg;

	snprintf(optbuf, sizeof(optbuf), "fsname=tracefs,subtype=tracefuse%s%s",
		 opt->fuse_opts ? "," : "", opt->fuse_opts ? opt->fuse_opts : "");
	fargv[fargc++] = (char *)"tracefuse";
	fargv[fargc++] = (char *)"-o";
	fargv[fargc++] = optbuf;
	if (opt->debug)
		fargv[fargc++] = (char *)"-d";
	fargv[fargc] = NULL;
	args = (struct fuse_args)FUSE_ARGS_INIT(fargc, fargv);

	se = fuse_session_new(&args, &tf_fuse_ops, sizeof(tf_fuse_ops), t);
	if (!se) {
		fuse_opt_free_args(&args);
		return 1;
	}
	/* removed synthetic events leave the kernel's dentry cache */
	tf_fuse_set_session(se);
	t->event_removed = tf_fuse_event_removed;
	/* libfuse only catches signals still at SIG_DFL; a shell starts
	 * `tracefuse -f MNT &` with SIGINT ignored, and SIGINT must unmount */
	signal(SIGINT, SIG_DFL);
	if (fuse_set_signal_handlers(se) != 0)
		goto out_destroy;
	tf_inject_server_init(opt->mountpoint, &srv);	/* before: realpath */
	if (fuse_session_mount(se, opt->mountpoint) != 0) {
		fprintf(stderr, "tracefuse: cannot mount on %s%s\n",
			opt->mountpoint, getuid() == 0 ? "" :
			" (as a user, through fusermount3: it must be "
			"installed setuid root, the mount point yours, and "
			"allow_other needs user_allow_other in /etc/fuse.conf)");
		goto out_signals;
	}
	fuse_daemonize(opt->foreground);
	/* source threads start here: they would not survive the fork */
	if (tf_sources_start(srcs, t) < 0) {
		fprintf(stderr, "tracefuse: cannot start the event sources\n");
		goto out_unmount;
	}
	tf_inject_server_start(srv, t);	/* tracefuse-inject's socket */
	cfg = fuse_loop_cfg_create();
	if (!cfg)
		goto out_unmount;
	fuse_loop_cfg_set_clone_fd(cfg, 0);
	fuse_loop_cfg_set_max_threads(cfg, 16);
	fuse_loop_cfg_set_idle_threads(cfg, 4);
	ret = fuse_session_loop_mt(se, cfg) < 0 ? 1 : 0;
	fuse_loop_cfg_destroy(cfg);
	tf_fuse_ops_stop();
out_unmount:
	tf_sources_stop(srcs);
	fuse_session_unmount(se);
out_signals:
	tf_inject_server_stop(srv);
	fuse_remove_signal_handlers(se);
out_destroy:
	tf_fuse_set_session(NULL);
	t->event_removed = NULL;
	fuse_session_destroy(se);
	fuse_opt_free_args(&args);	/* libfuse's copy of fargv */
	return ret;
}

/* The sources asked for, or the default: the live kernel where the
 * host's tracefs is usable, otherwise the bundled sample trace. */
static int add_sources(const struct options *opt, struct tf_sources *srcs,
		       struct tf_registry *reg, int host_fd)
{
	char spec[4200];
	const char *dir = getenv("TRACEFUSE_DATADIR");

	for (int i = 0; i < opt->nr_sources; i++) {
		int ret = tf_sources_add(srcs, opt->sources[i], reg);

		if (ret < 0 && geteuid() != 0 &&
		    strcmp(opt->sources[i], "kernel") == 0) {
			fprintf(stderr, "tracefuse: --source kernel needs "
				"privileges this user lacks: the host's tracefs "
				"is root's (mounting it needs CAP_SYS_ADMIN, and "
				"the source makes an instance there); as a "
				"user, use --source replay:FILE, inject:FILE or "
				"none\n");
			return -1;
		}
		if (ret < 0) {
			fprintf(stderr, "tracefuse: --source %s: %s\n",
				opt->sources[i], ret == -EINVAL ?
				"unknown or unusable source" : ret == -EBADMSG ?
				"not a trace.dat libtracecmd can read (truncated "
				"or corrupt)" : strerror(-ret));
			return -1;
		}
	}
	if (opt->nr_sources)
		return 0;
	if (host_fd >= 0 && tf_sources_add(srcs, "kernel", reg) == 0)
		return 0;
	snprintf(spec, sizeof(spec), "replay:%s/sample.dat,start=read",
		 dir ? dir : tf_data_dir());
	/* none when the sample is missing */
	tf_sources_add(srcs, spec, reg);
	return 0;
}

int main(int argc, char **argv)
{
	struct tf_registry *reg = NULL;
	struct tf_sources *srcs;
	struct options opt;
	struct tf_tracing t;
	bool tracing_up = false;
	int host_fd, ret, err;
	long ncpu;

	if (argc > 1 && strcmp(argv[1], "run") == 0)
		return tf_run_main(argc - 1, argv + 1);	/* run.c */
	/* the client commands read a mounted tree (src/cli) */
	if (argc > 1 && strcmp(argv[1], "export") == 0)
		return tf_cli_export(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "metrics") == 0)
		return tf_cli_metrics(argc - 1, argv + 1);
	if (argc > 1 && strcmp(argv[1], "hist") == 0)
		return tf_cli_hist(argc - 1, argv + 1);
	/* the tree is the mounting user's, as tracefs's uid= and gid= */
	tf_access_set_owner(getuid(), getgid());
	if (parse_args(argc, argv, &opt) < 0 || mount_options(&opt) < 0)
		return 1;
	if (check_mountpoint(opt.mountpoint) < 0)
		return 1;
	host_fd = opt.formats ? -1 : tf_run_host_fd();	/* run.c */
	ret = 1;
	srcs = tf_sources_new();
	if (!srcs) {
		fprintf(stderr, "tracefuse: out of memory\n");
		goto out;
	}
	tf_sources_set_host_fd(srcs, host_fd);
	err = tf_load_registry(&reg, opt.formats, host_fd);
	if (err < 0) {
		fprintf(stderr, "tracefuse: no event formats found (%s)\n",
			strerror(-err));
		goto out;
	}
	if (add_sources(&opt, srcs, reg, host_fd) < 0)
		goto out;
	if (opt.foreground)
		fprintf(stderr, "tracefuse: %u events in %u systems from %s; "
			"source: %s\n", reg->nr_events, reg->nr_systems,
			reg->source_desc, tf_sources_describe(srcs));
	ncpu = opt.cpus ? opt.cpus : sysconf(_SC_NPROCESSORS_ONLN);
	if (tf_tracing_init(&t, reg, ncpu > 0 ? (int)ncpu : 1) < 0) {
		fprintf(stderr, "tracefuse: out of memory\n");
		goto out;
	}
	tracing_up = true;
	/* CPUS{} in filters names the CPUs the tree presents, as the
	 * kernel's name its nr_cpu_ids (default: the host's, configured) */
	if (opt.cpus)
		t.filter_env.nr_cpus = (unsigned)opt.cpus;
	tf_trace_marker_init(reg);
	tf_trigger_init(reg);
	/* the "hist" trigger command */
	if (tf_hist_init(&t) < 0) {
		fprintf(stderr, "tracefuse: out of memory\n");
		goto out;
	}
	/* .function in filters: the tree's kernel symbols, as .sym in hist */
	tf_tracing_use_ksyms(&t);
	if (opt.nr_events)
		tf_buffer_expand(t.top);	/* as trace-cmd's enable writes */
	for (int i = 0; i < opt.nr_events; i++) {
		if (tf_set_event_token(t.top, opt.events[i], 1) < 0) {
			fprintf(stderr, "tracefuse: -e %s: no such event\n",
				opt.events[i]);
			goto out;
		}
	}
	ret = run(&opt, &t, srcs);
out:
	/* the sources go first: they hold the tree they feed */
	tf_sources_free(srcs);
	if (tracing_up)
		tf_tracing_destroy(&t);
	tf_registry_free(reg);
	if (host_fd >= 0)
		close(host_fd);
	return ret;
}

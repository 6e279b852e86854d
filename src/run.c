// SPDX-License-Identifier: GPL-2.0
/*
 * run.c - `tracefuse run [OPTIONS] -- COMMAND...` (see run.h).
 *
 * The process unshares its mount namespace (mounts made private), opens
 * the host's tracefs root first, detaches every tracefs mount of the new
 * namespace (so that the first `tracefs` line of /proc/mounts is
 * tracefuse's), then forks the daemon (the ordinary main(), in the
 * foreground, in a session of its own) mounting on /sys/kernel/tracing
 * and reaching the host through the inherited fd.  Once the mount
 * answers, /sys/kernel/debug/tracing is bound to it (debugfs is
 * mounted at /sys/kernel/debug for that when the namespace has none) and
 * COMMAND runs; its exit status is ours.  COMMAND is our child, not the
 * daemon's: the daemon's threads (and what they fork) are kept out of
 * the live source's events, COMMAND's are not.
 *
 * /proc/sys/kernel/ftrace_enabled is the function tracer's switch, which
 * trace-cmd start and record write before anything else: in the
 * namespace it is a private copy of the host's value bound over it, so
 * the write succeeds and the host's switch is left alone;
 * tracefuse has no function tracer for it to switch.
 *
 * COMMAND runs without CAP_SYS_ADMIN.  /proc/mounts calls tracefuse
 * "fuse.tracefuse", not "tracefs", and libtracefs, not finding a
 * tracefs there, mounts one at /sys/kernel/tracing: the host's, over
 * tracefuse.  Without the capability that mount fails and libtracefs
 * takes the debugfs mount's tracing directory, which is tracefuse.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <linux/capability.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "daemon.h"
#include "run.h"

#define TRACING "/sys/kernel/tracing"
#define FTRACE_ENABLED "/proc/sys/kernel/ftrace_enabled"
#define DEBUG_TRACING "/sys/kernel/debug/tracing"
#define MAX_MOUNTS 256

int main(int argc, char **argv);

/* `tracefuse run` is a program of its own (one per process), not the
 * engine: its host fd, its mode and the child its signal handler
 * forwards to are the process's. */
static int run_host_fd = -1;
static int in_run;
static volatile pid_t command_pid;

int tf_run_host_fd(void)
{
	if (in_run)
		return run_host_fd >= 0 ? run_host_fd : -ENOENT;
	return tf_host_tracefs_open();
}

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* mountinfo field 5 (mount point, octal-escaped) and the fs type/source */
static int parse_mountinfo_line(char *line, char *mnt, size_t mntsz,
				char *fstype, char *fssrc)
{
	const char *sep = strstr(line, " - ");

	if (!sep || sscanf(line, "%*s %*s %*s %*s %4095s", mnt) != 1 ||
	    sscanf(sep + 3, "%255s %255s", fstype, fssrc) != 2)
		return -1;
	(void)mntsz;
	return 0;
}

/*
 * Detaches the tracefs mounts (real ones, and other tracefuse mounts,
 * whose source is "tracefs") of this private namespace, newest first.
 */
static void detach_tracefs_mounts(void)
{
	static char mnts[MAX_MOUNTS][4096];
	char line[8192];
	int n = 0;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && n < MAX_MOUNTS) {
		char fstype[256], fssrc[256];

		if (parse_mountinfo_line(line, mnts[n], sizeof(mnts[n]),
					 fstype, fssrc) < 0)
			continue;
		if (strcmp(fstype, "tracefs") == 0 ||
		    (strncmp(fstype, "fuse", 4) == 0 &&
		     strcmp(fssrc, "tracefs") == 0))
			n++;
	}
	fclose(f);
	while (n-- > 0) {
		char path[4096], *o = path;

		/* undo mountinfo's octal escapes (\040 for a space) */
		for (const char *p = mnts[n]; *p && o < path + 4095; p++) {
			if (p[0] == '\\' && p[1] >= '0' && p[1] <= '7' &&
			    p[2] && p[3]) {
				*o++ = (char)((p[1] - '0') * 64 +
					      (p[2] - '0') * 8 + (p[3] - '0'));
				p += 3;
			} else {
				*o++ = *p;
			}
		}
		*o = '\0';
		umount2(path, MNT_DETACH);
	}
}

static bool tracefuse_mounted_on(const char *where)
{
	char line[8192];
	bool found = false;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char mnt[4096], fstype[256], fssrc[256];

		if (parse_mountinfo_line(line, mnt, sizeof(mnt), fstype,
					 fssrc) == 0 &&
		    strcmp(mnt, where) == 0 &&
		    strcmp(fstype, "fuse.tracefuse") == 0)
			found = true;
	}
	fclose(f);
	return found;
}

/* What /proc/self/mountinfo says is mounted on @where (the newest), or
 * false. */
static bool mounted_type(const char *where, char *fstype, size_t size)
{
	char line[8192];
	bool found = false;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		char mnt[4096], type[256], src[256];

		if (parse_mountinfo_line(line, mnt, sizeof(mnt), type, src) == 0 &&
		    strcmp(mnt, where) == 0) {
			snprintf(fstype, size, "%s", type);
			found = true;
		}
	}
	fclose(f);
	return found;
}

/* Unmounts every layer mounted on @where (a tool may have mounted
 * something over tracefuse), newest first. */
static void unmount_all(const char *where)
{
	char type[256];

	for (int i = 0; i < 16 && mounted_type(where, type, sizeof(type)); i++)
		if (umount2(where, i ? MNT_DETACH : 0) < 0 &&
		    umount2(where, MNT_DETACH) < 0)
			break;
}

/*
 * Binds a private copy of ftrace_enabled over the host's, in this
 * namespace; nothing when the host has none.  The copy is a file of a
 * tmpfs mounted for the moment on @dir (a bind's source must be a mount
 * of this namespace) and detached at once: the bind keeps it.
 */
static void private_ftrace_enabled(const char *dir)
{
	char buf[32], path[4200];
	ssize_t n;
	int fd;

	fd = open(FTRACE_ENABLED, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n <= 0 || mount("tmpfs", dir, "tmpfs", MS_NOSUID | MS_NODEV |
			    MS_NOEXEC, "size=4k,mode=0755") < 0)
		return;
	snprintf(path, sizeof(path), "%s/ftrace_enabled", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0) {
		if (write(fd, buf, (size_t)n) == n)
			mount(path, FTRACE_ENABLED, NULL, MS_BIND, NULL);
		close(fd);
	}
	umount2(dir, MNT_DETACH);
}

static void forward_signal(int sig)
{
	if (command_pid > 0)
		kill(command_pid, sig);
}

static int exit_status(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return 1;
}

static void usage(void)
{
	fputs("Usage: tracefuse run [OPTIONS] -- COMMAND [ARG...]\n"
	      "Runs COMMAND in a private mount namespace where "
	      TRACING "\n(and " DEBUG_TRACING ", where the host has it) is "
	      "tracefuse.\nOPTIONS are tracefuse's (--source, -e, --cpus, "
	      "...); with -f the\ndaemon's log goes to stderr.  Needs "
	      "CAP_SYS_ADMIN.\n", stderr);
}

/* Forks the daemon: main() with OPTIONS, -f, and the mount point. */
static pid_t start_daemon(char **opts, int nr_opts, bool log)
{
	char **av = calloc((size_t)nr_opts + 4, sizeof(*av));
	pid_t pid;
	int ac = 0;

	if (!av)
		return -1;
	av[ac++] = (char *)"tracefuse";
	for (int i = 0; i < nr_opts; i++)
		av[ac++] = opts[i];
	av[ac++] = (char *)"-f";
	av[ac++] = (char *)TRACING;
	av[ac] = NULL;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		setsid();	/* the terminal's ^C is COMMAND's, not ours */
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 1);
			if (!log)
				dup2(null, 2);
		}
		_exit(main(ac, av));
	}
	free(av);
	return pid;
}

/* Waits until the mount is up and answering (the FUSE loop runs, so the
 * event sources have started); false if the daemon died first. */
static bool wait_mounted(pid_t daemon)
{
	struct timespec ts = { 0, 5000000 };
	struct stat st;
	int status;

	for (int i = 0; i < 2000; i++) {	/* 10 s */
		if (waitpid(daemon, &status, WNOHANG) == daemon)
			return false;
		if (tracefuse_mounted_on(TRACING))
			return stat(TRACING "/trace", &st) == 0;
		nanosleep(&ts, NULL);
	}
	return false;
}

int tf_run_main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = forward_signal };
	char **cmd = NULL;
	bool log = false, debug_bound = false, debugfs_mounted = false;
	bool has_debug;
	int nr_opts, status, ret;
	pid_t daemon, child;

	for (nr_opts = 1; nr_opts < argc; nr_opts++) {
		if (strcmp(argv[nr_opts], "--") == 0) {
			cmd = argv + nr_opts + 1;
			break;
		}
		if (strcmp(argv[nr_opts], "-h") == 0 ||
		    strcmp(argv[nr_opts], "--help") == 0) {
			usage();
			return 0;
		}
		if (strcmp(argv[nr_opts], "-f") == 0 ||
		    strcmp(argv[nr_opts], "--foreground") == 0)
			log = true;
	}
	if (!cmd || !cmd[0]) {
		usage();
		return 2;
	}
	nr_opts -= 1;	/* argv[1 .. nr_opts] are the daemon's options */

	has_debug = is_dir(DEBUG_TRACING);
	if (unshare(CLONE_NEWNS) < 0) {
		fprintf(stderr, "tracefuse run: cannot make a private mount "
			"namespace: %s\n", strerror(errno));
		return 1;
	}
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) {
		fprintf(stderr, "tracefuse run: cannot make mounts private: "
			"%s\n", strerror(errno));
		return 1;
	}
	in_run = 1;
	run_host_fd = tf_host_tracefs_open();	/* before anything covers it */
	detach_tracefs_mounts();
	if (!is_dir(TRACING)) {
		fprintf(stderr, "tracefuse run: %s: no such directory\n",
			TRACING);
		return 1;
	}
	private_ftrace_enabled(TRACING);	/* before tracefuse covers it */

	daemon = start_daemon(argv + 1, nr_opts, log);
	if (daemon < 0 || !wait_mounted(daemon)) {
		fprintf(stderr, "tracefuse run: tracefuse did not start on "
			"%s%s\n", TRACING, log ? "" : " (use -f to see why)");
		if (daemon > 0) {
			kill(daemon, SIGTERM);
			waitpid(daemon, NULL, 0);
		}
		return 1;
	}
	/* libtracefs finds a tracing directory through a debugfs mount */
	if (!has_debug) {
		char type[256];

		if (!mounted_type("/sys/kernel/debug", type, sizeof(type)) &&
		    mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL) == 0)
			debugfs_mounted = true;
	}
	if (is_dir(DEBUG_TRACING) &&
	    mount(TRACING, DEBUG_TRACING, NULL, MS_BIND, NULL) == 0)
		debug_bound = true;
	if (run_host_fd >= 0)
		close(run_host_fd);	/* the daemon has its own copy */

	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	fflush(NULL);
	child = fork();
	if (child == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGQUIT, SIG_DFL);
		/* root's exec takes the bounding set: no mounts over ours */
		prctl(PR_CAPBSET_DROP, CAP_SYS_ADMIN, 0, 0, 0);
		execvp(cmd[0], cmd);
		fprintf(stderr, "tracefuse run: %s: %s\n", cmd[0],
			strerror(errno));
		_exit(errno == ENOENT ? 127 : 126);
	}
	ret = 1;
	if (child > 0) {
		command_pid = child;
		while (waitpid(child, &status, 0) < 0 && errno == EINTR)
			;
		ret = exit_status(status);
	} else {
		fprintf(stderr, "tracefuse run: fork: %s\n", strerror(errno));
	}

	if (debug_bound)
		unmount_all(DEBUG_TRACING);
	if (debugfs_mounted)
		umount2("/sys/kernel/debug", MNT_DETACH);
	/* unmounting ends the daemon's loop: it removes its host instance */
	unmount_all(TRACING);
	while (waitpid(daemon, &status, 0) < 0 && errno == EINTR)
		;
	return ret;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * daemon.c - finding the host tracefs and the schemas (see daemon.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "daemon.h"
#include "util/kstrto.h"

static int open_tracefs_dir(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	/* a tracefs root has events/header_page */
	if (faccessat(fd, "events/header_page", R_OK, 0) < 0) {
		close(fd);
		return -ENOENT;
	}
	return fd;
}

int tf_host_tracefs_open(void)
{
	static const char *const paths[] = {
		"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
	};
	char tmp[] = "/tmp/tracefuse-host-XXXXXX";
	int fd;

	for (size_t i = 0; i < sizeof(paths) / sizeof(*paths); i++) {
		fd = open_tracefs_dir(paths[i]);
		if (fd >= 0)
			return fd;
	}
	/* mountable: mount privately, keep the fd, detach the mount */
	if (!mkdtemp(tmp))
		return -errno;
	if (mount("nodev", tmp, "tracefs", 0, NULL) < 0) {
		int err = -errno;

		rmdir(tmp);
		return err;
	}
	fd = open_tracefs_dir(tmp);
	umount2(tmp, MNT_DETACH);
	rmdir(tmp);
	return fd;
}

/* Loads a directory laid out as events/ with available_events beside. */
static int load_dir(struct tf_registry **reg, int rootfd, const char *events,
		    const char *order_path, const char *desc)
{
	int efd = openat(rootfd, events, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char *order;
	int ret;

	if (efd < 0)
		return -errno;
	order = tf_read_file_at(rootfd, order_path, NULL);
	ret = tf_registry_load(reg, efd, order, desc);
	free(order);
	close(efd);
	return ret;
}

#ifndef TF_BINDIR	/* builds by scripts/ (sanitizers, fuzzing): never installed */
#define TF_BINDIR "/nonexistent"
#endif

/* Whether this binary is the installed one (it runs from $(bindir)),
 * rather than one run from its build directory. */
static bool running_installed(void)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0)
		return false;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return false;
	*slash = '\0';
	return strcmp(exe, TF_BINDIR) == 0;
}

const char *tf_data_dir(void)
{
	const char *dirs[2] = { TF_SRCDATADIR, TF_DATADIR };
	const char *env = getenv("TRACEFUSE_DATADIR");
	char path[4200];
	struct stat st;

	if (env)
		return env;
	/* an installed binary takes the installed data, one run from its
	 * build directory the source tree's data/, whichever exists */
	if (running_installed()) {
		dirs[0] = TF_DATADIR;
		dirs[1] = TF_SRCDATADIR;
	}
	for (size_t i = 0; i < sizeof(dirs) / sizeof(*dirs); i++) {
		snprintf(path, sizeof(path), "%s/formats", dirs[i]);
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
			return dirs[i];
	}
	return TF_DATADIR;
}

static const char *bundled_dir(void)
{
	static char buf[4300];

	snprintf(buf, sizeof(buf), "%s/formats", tf_data_dir());
	return buf;
}

/* A preemption model as the 6.12 latency header names it. */
static const char *model_name(const char *mode, size_t len)
{
	static const char *const names[][2] = {
		{ "none", "server" }, { "voluntary", "desktop" },
		{ "full", "preempt" }, { "lazy", "lazy" },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		if (strlen(names[i][0]) == len &&
		    memcmp(names[i][0], mode, len) == 0)
			return names[i][1];
	return NULL;
}

/*
 * The host's preemption model: debugfs names the dynamic mode in
 * parentheses; else preempt= on the command line; else uname -v
 * (PREEMPT_RT, or PREEMPT without PREEMPT_DYNAMIC); else "desktop", the
 * voluntary model distributions build (uname cannot tell it from none).
 */
static const char *host_preempt_model(void)
{
	char buf[4096], *p, *q;
	const char *m;
	struct utsname u;
	int fd;

	fd = open("/sys/kernel/debug/sched/preempt", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		ssize_t n = read(fd, buf, sizeof(buf) - 1);

		close(fd);
		buf[n > 0 ? n : 0] = '\0';
		if ((p = strchr(buf, '(')) && (q = strchr(p, ')')) &&
		    (m = model_name(p + 1, (size_t)(q - p - 1))))
			return m;
	}
	fd = open("/proc/cmdline", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		ssize_t n = read(fd, buf + 1, sizeof(buf) - 2);

		close(fd);
		buf[0] = ' ';
		buf[n > 0 ? n + 1 : 1] = '\0';
		if ((p = strstr(buf, " preempt=")) &&
		    (m = model_name(p + 9, strcspn(p + 9, " \n"))))
			return m;
	}
	if (uname(&u) == 0) {
		if (strstr(u.version, "PREEMPT_RT"))
			return "preempt_rt";
		if (strstr(u.version, "PREEMPT_DYNAMIC"))
			return "desktop";
		if (strstr(u.version, "PREEMPT"))
			return "preempt";
	}
	return "desktop";
}

/*
 * The release of the schemas' kernel: the host's for its tracefs; a
 * formats directory's KERNEL file (scripts/capture-formats.sh writes
 * it), else the host's.  The preemption model is the host's only when
 * the schemas are.
 */
static void kernel_identity(struct tf_registry *reg, int dirfd, bool host)
{
	char *rel = host ? NULL : tf_read_file_at(dirfd, "KERNEL", NULL);
	struct utsname u;

	if (rel)
		rel[strcspn(rel, "\n")] = '\0';
	else if (uname(&u) == 0)
		rel = strdup(u.release);
	reg->kernel_release = rel;
	reg->preempt_model = host ? host_preempt_model() : "desktop";
}

int tf_load_registry(struct tf_registry **reg, const char *formats_dir,
		     int host_fd)
{
	char desc[4400];
	int fd, ret;

	if (!formats_dir && host_fd >= 0) {
		ret = load_dir(reg, host_fd, "events", "available_events",
			       "host tracefs");
		if (ret == 0) {
			kernel_identity(*reg, host_fd, true);
			return 0;
		}
	}
	if (!formats_dir)
		formats_dir = bundled_dir();
	fd = open(formats_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	snprintf(desc, sizeof(desc), "formats in %s", formats_dir);
	ret = load_dir(reg, fd, ".", "available_events", desc);
	if (ret == 0)
		kernel_identity(*reg, fd, false);
	close(fd);
	return ret;
}

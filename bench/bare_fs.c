// SPDX-License-Identifier: GPL-2.0
/*
 * bare_fs.c - the floor for bench_control: a bare libfuse low-level
 * filesystem with the same shape as the control files it is compared
 * with (events/sched/sched_switch/{enable,trigger} and tracing_on), the
 * same bytes, the same open flags (direct_io), entry/attr timeouts and
 * multithreaded loop configuration as tracefuse (src/main.c,
 * src/fs/fuse_ops.c), and no work behind the files: reads return a
 * constant, writes are accepted and dropped.  Whatever tracefuse costs
 * above this is tracefuse's own.
 *
 *   bare_fs MOUNTPOINT        (stays in the foreground; SIGTERM unmounts)
 */
#define FUSE_USE_VERSION 312

#include <errno.h>
#include <fuse_lowlevel.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define ENTRY_TIMEOUT 1.0

struct bare_node {
	const char *name;
	fuse_ino_t parent;
	mode_t mode;
	const char *text;	/* files only */
};

/* index + 1 is the inode number; 1 is the root */
static const struct bare_node nodes[] = {
	{ "", 1, S_IFDIR | 0700, NULL },
	{ "events", 1, S_IFDIR | 0755, NULL },
	{ "sched", 2, S_IFDIR | 0755, NULL },
	{ "sched_switch", 3, S_IFDIR | 0755, NULL },
	{ "enable", 4, S_IFREG | 0640, "0\n" },
	{ "trigger", 4, S_IFREG | 0640,
	  "# Available triggers:\n"
	  "# traceon traceoff snapshot stacktrace enable_event "
	  "disable_event enable_hist disable_hist hist\n" },
	{ "tracing_on", 1, S_IFREG | 0640, "1\n" },
};
#define NR_NODES (sizeof(nodes) / sizeof(nodes[0]))

static const struct bare_node *node_of(fuse_ino_t ino)
{
	return ino >= 1 && ino <= NR_NODES ? &nodes[ino - 1] : NULL;
}

static void node_stat(fuse_ino_t ino, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_ino = ino;
	st->st_mode = node_of(ino)->mode;
	st->st_nlink = S_ISDIR(st->st_mode) ? 2 : 1;
}

static void bare_init(void *userdata, struct fuse_conn_info *conn)
{
	(void)userdata;
	if (conn->capable & FUSE_CAP_ATOMIC_O_TRUNC)
		conn->want |= FUSE_CAP_ATOMIC_O_TRUNC;
	conn->want &= ~FUSE_CAP_WRITEBACK_CACHE;
}

static void bare_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct fuse_entry_param e;

	for (size_t i = 1; i < NR_NODES; i++) {
		if (nodes[i].parent == parent &&
		    strcmp(nodes[i].name, name) == 0) {
			memset(&e, 0, sizeof(e));
			e.ino = i + 1;
			node_stat(e.ino, &e.attr);
			e.attr_timeout = ENTRY_TIMEOUT;
			e.entry_timeout = ENTRY_TIMEOUT;
			fuse_reply_entry(req, &e);
			return;
		}
	}
	fuse_reply_err(req, ENOENT);
}

static void bare_getattr(fuse_req_t req, fuse_ino_t ino,
			 struct fuse_file_info *fi)
{
	struct stat st;

	(void)fi;
	if (!node_of(ino)) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	node_stat(ino, &st);
	fuse_reply_attr(req, &st, ENTRY_TIMEOUT);
}

/* O_TRUNC on a file of size 0 arrives as setattr without ATOMIC_O_TRUNC */
static void bare_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr,
			 int to_set, struct fuse_file_info *fi)
{
	(void)attr;
	(void)to_set;
	bare_getattr(req, ino, fi);
}

static void bare_open(fuse_req_t req, fuse_ino_t ino,
		      struct fuse_file_info *fi)
{
	const struct bare_node *n = node_of(ino);

	if (!n) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	if (S_ISDIR(n->mode)) {
		fuse_reply_err(req, EISDIR);
		return;
	}
	fi->direct_io = 1;
	fi->keep_cache = 0;
	fuse_reply_open(req, fi);
}

static void bare_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		      struct fuse_file_info *fi)
{
	const char *text = node_of(ino)->text;
	size_t len = strlen(text);

	(void)fi;
	if ((size_t)off >= len) {
		fuse_reply_buf(req, NULL, 0);
		return;
	}
	if (size > len - (size_t)off)
		size = len - (size_t)off;
	fuse_reply_buf(req, text + off, size);
}

static void bare_write(fuse_req_t req, fuse_ino_t ino, const char *buf,
		       size_t size, off_t off, struct fuse_file_info *fi)
{
	(void)ino;
	(void)buf;
	(void)off;
	(void)fi;
	fuse_reply_write(req, size);
}

static void bare_release(fuse_req_t req, fuse_ino_t ino,
			 struct fuse_file_info *fi)
{
	(void)ino;
	(void)fi;
	fuse_reply_err(req, 0);
}

static void bare_readdir(fuse_req_t req, fuse_ino_t ino, size_t size,
			 off_t off, struct fuse_file_info *fi)
{
	char buf[4096];
	size_t used = 0;

	(void)fi;
	if (size > sizeof(buf))
		size = sizeof(buf);
	for (size_t i = (size_t)off; i < NR_NODES; i++) {
		struct stat st;
		size_t len;

		if (i == 0 || nodes[i].parent != ino)
			continue;
		node_stat(i + 1, &st);
		len = fuse_add_direntry(req, buf + used, size - used,
					nodes[i].name, &st, (off_t)(i + 1));
		if (len > size - used)
			break;
		used += len;
	}
	fuse_reply_buf(req, buf, used);
}

static const struct fuse_lowlevel_ops bare_ops = {
	.init = bare_init,
	.lookup = bare_lookup,
	.getattr = bare_getattr,
	.setattr = bare_setattr,
	.open = bare_open,
	.read = bare_read,
	.write = bare_write,
	.release = bare_release,
	.readdir = bare_readdir,
};

int main(int argc, char **argv)
{
	char *fargv[] = { argv[0], (char *)"-o",
			  (char *)"fsname=barefs,subtype=bare_fs", NULL };
	struct fuse_args args = FUSE_ARGS_INIT(3, fargv);
	struct fuse_loop_config *cfg;
	struct fuse_session *se;
	int ret = 1;

	if (argc != 2) {
		fprintf(stderr, "usage: bare_fs MOUNTPOINT\n");
		return 1;
	}
	se = fuse_session_new(&args, &bare_ops, sizeof(bare_ops), NULL);
	if (!se)
		return 1;
	if (fuse_set_signal_handlers(se) != 0)
		goto out_destroy;
	if (fuse_session_mount(se, argv[1]) != 0)
		goto out_signals;
	cfg = fuse_loop_cfg_create();
	if (cfg) {
		/* as src/main.c */
		fuse_loop_cfg_set_clone_fd(cfg, 0);
		fuse_loop_cfg_set_max_threads(cfg, 16);
		fuse_loop_cfg_set_idle_threads(cfg, 4);
		ret = fuse_session_loop_mt(se, cfg) < 0 ? 1 : 0;
		fuse_loop_cfg_destroy(cfg);
	}
	fuse_session_unmount(se);
out_signals:
	fuse_remove_signal_handlers(se);
out_destroy:
	fuse_session_destroy(se);
	return ret;
}

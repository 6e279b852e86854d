// SPDX-License-Identifier: GPL-2.0
/*
 * pread_race.c - several threads read one open file descriptor at once.
 *
 * Usage: pread_race THREADS SECONDS FILE...
 *
 * For each FILE, one descriptor is opened and THREADS threads pread() it
 * for SECONDS: at offset 0 (which makes tracefuse render the file again)
 * and at offsets inside it, in 4 KiB to 128 KiB pieces; every tenth time
 * a thread instead reads the file as cat does (open, read to the end,
 * close: the close sends RELEASE while other threads read).  The file
 * must not change meanwhile: every piece read must equal the same piece
 * of a reference copy read before the threads started.  Exits 0 when every
 * read returned the expected bytes, 1 on a mismatch or a read error (the
 * daemon gone: ENOTCONN), 2 on bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct target {
	const char *path;
	int fd;
	char *ref;
	size_t len;
};

static struct target *targets;
static int nr_targets;
static double stop_at;
static atomic_long nr_reads, nr_bad;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int read_all(const char *path, char **out, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *buf;
	int fd = open(path, O_RDONLY);
	ssize_t r;

	if (fd < 0)
		return -1;
	buf = malloc(cap);
	if (!buf) {
		close(fd);
		return -1;
	}
	while ((r = read(fd, buf + n, cap - n)) > 0) {
		n += (size_t)r;
		if (n == cap) {
			char *p = realloc(buf, cap *= 2);

			if (!p) {
				free(buf);
				close(fd);
				return -1;
			}
			buf = p;
		}
	}
	close(fd);
	if (r < 0) {
		free(buf);
		return -1;
	}
	*out = buf;
	*len = n;
	return 0;
}

/* The cat pattern: the whole file through a descriptor of its own. */
static void cat_once(struct target *t)
{
	char *text;
	size_t len;

	atomic_fetch_add(&nr_reads, 1);
	if (read_all(t->path, &text, &len) < 0) {
		fprintf(stderr, "%s: %s\n", t->path, strerror(errno));
		atomic_fetch_add(&nr_bad, 1);
		return;
	}
	if (len != t->len || memcmp(text, t->ref, len)) {
		if (atomic_fetch_add(&nr_bad, 1) < 5)
			fprintf(stderr, "%s: cat read %zu bytes, not the %zu "
				"expected\n", t->path, len, t->len);
	}
	free(text);
}

static void *reader(void *arg)
{
	unsigned seed = (unsigned)(uintptr_t)arg;
	size_t max = 128 << 10;
	char *buf = malloc(max);

	while (now() < stop_at) {
		struct target *t = &targets[rand_r(&seed) % nr_targets];
		size_t size = (4096u << (rand_r(&seed) % 6));
		size_t off = 0, want;
		ssize_t r;

		if (rand_r(&seed) % 10 == 0) {
			cat_once(t);
			continue;
		}

		/* half the reads at 0 (a re-render), half inside the text */
		if (t->len && rand_r(&seed) % 2)
			off = rand_r(&seed) % t->len;
		r = pread(t->fd, buf, size, (off_t)off);
		atomic_fetch_add(&nr_reads, 1);
		want = off < t->len ? t->len - off : 0;
		if (want > size)
			want = size;
		if (r < 0) {
			fprintf(stderr, "%s: pread(%zu, %zu): %s\n", t->path,
				size, off, strerror(errno));
			atomic_fetch_add(&nr_bad, 1);
			if (errno == ENOTCONN)
				break;
		} else if ((size_t)r != want || memcmp(buf, t->ref + off, want)) {
			if (atomic_fetch_add(&nr_bad, 1) < 5)
				fprintf(stderr, "%s: pread(%zu, %zu) returned "
					"%zd bytes, not the %zu expected\n",
					t->path, size, off, r, want);
		}
	}
	free(buf);
	return NULL;
}

int main(int argc, char **argv)
{
	int nr_threads;
	pthread_t *tids;
	double secs;

	if (argc < 4) {
		fprintf(stderr, "usage: pread_race THREADS SECONDS FILE...\n");
		return 2;
	}
	nr_threads = atoi(argv[1]);
	secs = atof(argv[2]);
	nr_targets = argc - 3;
	targets = calloc((size_t)nr_targets, sizeof(*targets));
	tids = calloc((size_t)nr_threads, sizeof(*tids));
	if (nr_threads < 1 || !targets || !tids)
		return 2;
	for (int i = 0; i < nr_targets; i++) {
		struct target *t = &targets[i];

		t->path = argv[3 + i];
		t->fd = open(t->path, O_RDONLY);
		if (t->fd < 0 || read_all(t->path, &t->ref, &t->len) < 0) {
			perror(t->path);
			return 1;
		}
	}
	stop_at = now() + secs;
	for (int i = 0; i < nr_threads; i++)
		pthread_create(&tids[i], NULL, reader, (void *)(uintptr_t)(i + 1));
	for (int i = 0; i < nr_threads; i++)
		pthread_join(tids[i], NULL);
	printf("%ld reads of %d files by %d threads, %ld bad\n",
	       atomic_load(&nr_reads), nr_targets, nr_threads,
	       atomic_load(&nr_bad));
	return atomic_load(&nr_bad) ? 1 : 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * kstrto.c - the kernel's number parsing, and reading a whole file
 * (see kstrto.h).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/kstrto.h"
#include "util/strbuf.h"

int tf_kstrtoull(const char *s, unsigned base, uint64_t *res)
{
	uint64_t v = 0;
	int n = 0;

	if (*s == '+')
		s++;
	/* _parse_integer_fixup_radix() */
	if ((base == 0 || base == 16) && s[0] == '0' &&
	    tolower((unsigned char)s[1]) == 'x' &&
	    isxdigit((unsigned char)s[2])) {
		base = 16;
		s += 2;
	} else if (base == 0) {
		base = s[0] == '0' ? 8 : 10;
	}
	for (;; s++, n++) {
		int c = tolower((unsigned char)*s);
		unsigned d;

		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else
			break;
		if (d >= base)
			break;
		if (v > (UINT64_MAX - d) / base)
			return -ERANGE;
		v = v * base + d;
	}
	if (n == 0)
		return -EINVAL;
	if (*s == '\n')
		s++;
	if (*s)
		return -EINVAL;
	*res = v;
	return 0;
}

int tf_kstrtoll(const char *s, unsigned base, int64_t *res)
{
	uint64_t v;
	int ret;

	if (*s == '-') {
		ret = tf_kstrtoull(s + 1, base, &v);
		if (ret)
			return ret;
		if (v > (uint64_t)INT64_MAX + 1)
			return -ERANGE;
		*res = (int64_t)(0 - v);
		return 0;
	}
	ret = tf_kstrtoull(s, base, &v);
	if (ret)
		return ret;
	if (v > INT64_MAX)
		return -ERANGE;
	*res = (int64_t)v;
	return 0;
}

int tf_kstrtoull_buf(const char *buf, size_t len, unsigned base,
		     uint64_t *res)
{
	char tmp[64];

	/* kstrtoull_from_user() copies at most sizeof(buf) - 1 bytes */
	if (len >= sizeof(tmp))
		len = sizeof(tmp) - 1;
	memcpy(tmp, buf, len);
	tmp[len] = '\0';
	return tf_kstrtoull(tmp, base, res);
}

char *tf_read_file_at(int dirfd, const char *path, size_t *lenp)
{
	struct strbuf sb = STRBUF_INIT;
	char chunk[65536];
	ssize_t n;
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	while ((n = read(fd, chunk, sizeof(chunk))) > 0)
		sb_add(&sb, chunk, (size_t)n);
	close(fd);
	if (n < 0 || sb_error(&sb)) {
		sb_release(&sb);
		return NULL;
	}
	if (lenp)
		*lenp = sb.len;
	return sb_detach(&sb);
}

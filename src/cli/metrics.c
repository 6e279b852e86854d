// SPDX-License-Identifier: GPL-2.0
/*
 * metrics.c - `tracefuse metrics [--listen ADDR:PORT] MOUNT`: every
 * histogram of a tracefs tree (each event's hist file, at the top level
 * and in every instance) served over HTTP (libmicrohttpd) as metrics:
 * in the OpenMetrics text format to clients that ask for it (Prometheus
 * does), else in Prometheus's text format 0.0.4 (curl, promtool).
 * Each scrape reads the hist files anew, as a script would.
 *
 * Families (docs/metrics.md):
 *   tracefuse_hist_hitcount      counter  an entry's hitcount
 *   tracefuse_hist_value         counter  an entry's value, value="NAME"
 *   tracefuse_hist_percent       gauge    a .percent value
 *   tracefuse_hist_max           gauge    onmax()'s tracked maximum
 *   tracefuse_hist_changed       gauge    onchange()'s tracked value
 *   tracefuse_hist_saved         gauge    a number save() kept, field=
 *   tracefuse_hist_hits, _entries, _dropped   gauges  the Totals
 *   tracefuse_hist_info          gauge    1, with the trigger text
 * Every sample has trace_array ("" for the top level), system, event and
 * hist (the histogram's place in its file) labels; entry samples have
 * one label per key (see key_labels()).
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <microhttpd.h>

#include "cli/cli.h"
#include "cli/hist_text.h"
#include "util/strbuf.h"

enum family {
	F_HITCOUNT, F_VALUE, F_PERCENT, F_MAX, F_CHANGED, F_SAVED,
	F_HITS, F_ENTRIES, F_DROPPED, F_INFO, NR_FAMILIES
};

static const struct {
	const char *name, *type, *help;
} families[NR_FAMILIES] = {
	[F_HITCOUNT] = { "tracefuse_hist_hitcount", "counter",
		"Events counted in a histogram entry (its hitcount)." },
	[F_VALUE] = { "tracefuse_hist_value", "counter",
		"A histogram entry's summed value, named by the value label." },
	[F_PERCENT] = { "tracefuse_hist_percent", "gauge",
		"A .percent value: the entry's share of the value's total." },
	[F_MAX] = { "tracefuse_hist_max", "gauge",
		"The maximum an onmax() handler tracks for the entry." },
	[F_CHANGED] = { "tracefuse_hist_changed", "gauge",
		"The value an onchange() handler tracks for the entry." },
	[F_SAVED] = { "tracefuse_hist_saved", "gauge",
		"A number a save() action kept with the max or change." },
	[F_HITS] = { "tracefuse_hist_hits", "gauge",
		"Totals: events the histogram counted." },
	[F_ENTRIES] = { "tracefuse_hist_entries", "gauge",
		"Totals: entries the histogram holds." },
	[F_DROPPED] = { "tracefuse_hist_dropped", "gauge",
		"Totals: events dropped for want of room (size=)." },
	[F_INFO] = { "tracefuse_hist_info", "gauge",
		"1 for each histogram, with its trigger as read back." },
};

/* What one hist file adds to each family. */
struct scrape {
	struct strbuf fam[NR_FAMILIES];
};

static const char *mount_dir;

/* ---- labels ---- */

static void put_escaped(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			sb_putc(sb, '\\'), sb_putc(sb, *s);
		else if (*s == '\n')
			sb_puts(sb, "\\n");
		else
			sb_putc(sb, *s);
	}
}

static void put_label(struct strbuf *sb, const char *name, const char *v)
{
	sb_printf(sb, ",%s=\"", name);
	put_escaped(sb, v);
	sb_putc(sb, '"');
}

/* The label name of a key field: its name where it is a valid label name
 * that clashes with none of ours; else key_ and the name, '_' for any
 * other character. */
static void key_label_name(char *out, size_t size, const char *field,
			   const char *suffix)
{
	static const char *const reserved[] = {
		"trace_array", "system", "event", "hist", "value", "field",
		"handler", "trigger", "job", "instance", "le", "quantile",
	};
	bool clash = !*field || (field[0] == '_' && field[1] == '_') ||
		     (field[0] >= '0' && field[0] <= '9');
	size_t n;

	for (size_t i = 0; i < sizeof(reserved) / sizeof(*reserved); i++)
		clash |= strcmp(field, reserved[i]) == 0;
	n = (size_t)snprintf(out, size, "%s%s%s", clash ? "key_" : "", field,
			     suffix);
	for (size_t i = 0; i < n && i < size; i++)
		if (!((out[i] >= 'a' && out[i] <= 'z') ||
		      (out[i] >= 'A' && out[i] <= 'Z') ||
		      (out[i] >= '0' && out[i] <= '9') || out[i] == '_'))
			out[i] = '_';
}

/*
 * One label per key, its value the key as a number where it has one:
 * the pid of .execname (and KEY_execname="comm"), the address of .sym
 * in hex (and KEY_sym="symbol"), the number of .syscall (and
 * KEY_syscall="name"), "2^N" for .log2, "LO-HI" for .buckets, .hex keys
 * with 0x; a stacktrace its frames joined by ';' (innermost first); a
 * string its text.
 */
static void key_labels(struct strbuf *sb, const struct hist_entry *e)
{
	for (size_t i = 0; i < e->n_keys; i++) {
		const struct hist_key *k = &e->keys[i];
		const char *mod = k->spec ? k->spec->mod : NULL;
		char name[160], v[64];

		key_label_name(name, sizeof(name), k->spec ? k->spec->field :
			       "key", "");
		if (k->is_stack) {
			sb_printf(sb, ",%s=\"", name);
			for (size_t f = 0; f < k->n_frames; f++) {
				if (f)
					sb_putc(sb, ';');
				put_escaped(sb, k->frames[f]);
			}
			sb_putc(sb, '"');
			continue;
		}
		if (mod && strcmp(mod, "log2") == 0 && k->has_num)
			snprintf(v, sizeof(v), "2^%llu",
				 (unsigned long long)k->num);
		else if (mod && strcmp(mod, "buckets") == 0 && k->has_num)
			snprintf(v, sizeof(v), "%llu-%llu",
				 (unsigned long long)k->lo,
				 (unsigned long long)k->hi);
		else if (mod && (strcmp(mod, "hex") == 0 ||
				 strncmp(mod, "sym", 3) == 0) && k->has_num)
			snprintf(v, sizeof(v), "0x%llx",
				 (unsigned long long)k->num);
		else if (k->has_num)
			snprintf(v, sizeof(v), k->negative ? "%lld" : "%llu",
				 (unsigned long long)k->num);
		else
			v[0] = 0;
		put_label(sb, name, k->has_num ? v : k->text);
		if (k->name && mod) {
			char extra[200];

			key_label_name(extra, sizeof(extra), k->spec->field,
				       strcmp(mod, "sym-offset") == 0 ?
				       "_sym" : "");
			if (strcmp(mod, "sym-offset") != 0)
				snprintf(extra + strlen(extra),
					 sizeof(extra) - strlen(extra), "_%s",
					 mod);
			put_label(sb, extra, k->name);
		}
	}
}

/* ---- samples ---- */

static void sample(struct scrape *s, enum family f, const char *base,
		   const struct hist_entry *e, const char *extra_name,
		   const char *extra, const char *extra2_name,
		   const char *extra2, const char *value)
{
	struct strbuf *sb = &s->fam[f];

	sb_puts(sb, families[f].name);
	if (strcmp(families[f].type, "counter") == 0)
		sb_puts(sb, "_total");
	sb_printf(sb, "{%s", base);
	if (e)
		key_labels(sb, e);
	if (extra_name)
		put_label(sb, extra_name, extra);
	if (extra2_name)
		put_label(sb, extra2_name, extra2);
	sb_printf(sb, "} %s\n", value);
}

static void table_samples(struct scrape *s, const struct hist_table *t,
			  const char *base)
{
	char v[64];

	sample(s, F_INFO, base, NULL, "trigger", t->trigger ? t->trigger : "",
	       NULL, NULL, "1");
	for (size_t i = 0; i < t->n_entries; i++) {
		const struct hist_entry *e = &t->entries[i];

		for (size_t j = 0; j < e->n_vals; j++) {
			const struct hist_val *hv = &e->vals[j];

			if (hv->kind == HV_PERCENT) {
				char name[128];

				snprintf(name, sizeof(name), "%.*s",
					 (int)strcspn(hv->name, " "), hv->name);
				snprintf(v, sizeof(v), "%.2f", hv->pct);
				sample(s, F_PERCENT, base, e, "value", name,
				       NULL, NULL, v);
			} else if (hv->kind == HV_NUM) {
				snprintf(v, sizeof(v), "%llu",
					 (unsigned long long)hv->num);
				if (strcmp(hv->name, "hitcount") == 0)
					sample(s, F_HITCOUNT, base, e, NULL,
					       NULL, NULL, NULL, v);
				else
					sample(s, F_VALUE, base, e, "value",
					       hv->name, NULL, NULL, v);
			}	/* a graph bar has no number */
		}
		for (size_t j = 0; j < e->n_actions; j++) {
			const struct hist_action *a = &e->actions[j];
			enum family f = strcmp(a->handler, "max") == 0 ? F_MAX :
					F_CHANGED;

			if (a->vals[0].kind != HV_NUM)
				continue;
			snprintf(v, sizeof(v), "%llu",
				 (unsigned long long)a->vals[0].num);
			sample(s, f, base, e, NULL, NULL, NULL, NULL, v);
			for (size_t k = 1; k < a->n_vals; k++) {
				if (a->vals[k].kind != HV_NUM)
					continue;
				snprintf(v, sizeof(v), "%llu",
					 (unsigned long long)a->vals[k].num);
				sample(s, F_SAVED, base, e, "handler",
				       a->handler, "field", a->vals[k].name, v);
			}
		}
	}
	if (t->has_totals) {
		snprintf(v, sizeof(v), "%llu", (unsigned long long)t->hits);
		sample(s, F_HITS, base, NULL, NULL, NULL, NULL, NULL, v);
		snprintf(v, sizeof(v), "%llu",
			 (unsigned long long)t->nr_entries);
		sample(s, F_ENTRIES, base, NULL, NULL, NULL, NULL, NULL, v);
		snprintf(v, sizeof(v), "%llu", (unsigned long long)t->dropped);
		sample(s, F_DROPPED, base, NULL, NULL, NULL, NULL, NULL, v);
	}
}

static void scrape_hist(struct scrape *s, const char *path,
			const char *tr, const char *sys, const char *ev)
{
	struct arena a = { 0 };
	struct hist_file f;
	struct strbuf base;
	int err;
	char *text = tf_cli_read_file(path, &err);

	if (!text)
		return;		/* gone meanwhile, or not readable */
	if (strstr(text, "# event histogram") &&
	    hist_parse(&a, text, &f) == 0) {
		for (size_t i = 0; i < f.n_tables; i++) {
			sb_init(&base);
			sb_puts(&base, "trace_array=\"");
			put_escaped(&base, tr);
			sb_printf(&base, "\",system=\"");
			put_escaped(&base, sys);
			sb_printf(&base, "\",event=\"");
			put_escaped(&base, ev);
			sb_printf(&base, "\",hist=\"%zu\"", i);
			table_samples(s, &f.tables[i], base.buf);
			sb_release(&base);
		}
	}
	arena_reset(&a);
	free(text);
}

/*
 * A scrape reads one hist file per event (some 1,700 on a 6.12 tree):
 * each read is a round trip to the filesystem's daemon, so several
 * threads read at once, each file's samples kept apart and joined in
 * the order of the tree, whoever read them.
 */
#define SCRAPE_THREADS 4

struct job {
	char *path, *tr, *sys, *ev;
	struct scrape out;
};

struct jobs {
	struct job *v;
	size_t n, cap;
	size_t next;		/* atomic: the next job to take */
};

static void add_job(struct jobs *js, const char *path, const char *tr,
		    const char *sys, const char *ev)
{
	struct job *j;

	if (js->n == js->cap) {
		size_t cap = js->cap ? 2 * js->cap : 2048;
		struct job *v = realloc(js->v, cap * sizeof(*v));

		if (!v)
			return;		/* left out of this scrape */
		js->v = v;
		js->cap = cap;
	}
	j = &js->v[js->n];
	memset(j, 0, sizeof(*j));
	j->path = strdup(path);
	j->tr = strdup(tr);
	j->sys = strdup(sys);
	j->ev = strdup(ev);
	if (j->path && j->tr && j->sys && j->ev)
		js->n++;
	else
		free(j->path), free(j->tr), free(j->sys), free(j->ev);
}

/* Every events/SYSTEM/EVENT/hist under @dir. */
static void list_tree(struct jobs *js, const char *dir, const char *tr)
{
	char path[4096];
	DIR *d, *sd;
	struct dirent *de, *ee;

	snprintf(path, sizeof(path), "%s/events", dir);
	if (!(d = opendir(path)))
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || de->d_type == DT_REG)
			continue;
		snprintf(path, sizeof(path), "%s/events/%s", dir, de->d_name);
		if (!(sd = opendir(path)))
			continue;
		while ((ee = readdir(sd))) {
			if (ee->d_name[0] == '.' || ee->d_type == DT_REG)
				continue;
			snprintf(path, sizeof(path), "%s/events/%s/%s/hist",
				 dir, de->d_name, ee->d_name);
			add_job(js, path, tr, de->d_name, ee->d_name);
		}
		closedir(sd);
	}
	closedir(d);
}

static void *scrape_worker(void *arg)
{
	struct jobs *js = arg;
	size_t i;

	while ((i = __atomic_fetch_add(&js->next, 1, __ATOMIC_RELAXED)) <
	       js->n) {
		struct job *j = &js->v[i];

		scrape_hist(&j->out, j->path, j->tr, j->sys, j->ev);
	}
	return NULL;
}

static char *scrape_all(bool openmetrics, size_t *len)
{
	struct jobs js = { 0 };
	struct strbuf out;
	char path[4096];
	pthread_t th[SCRAPE_THREADS];
	int started = 0;
	DIR *d;
	struct dirent *de;

	list_tree(&js, mount_dir, "");
	snprintf(path, sizeof(path), "%s/instances", mount_dir);
	if ((d = opendir(path))) {
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/instances/%s",
				 mount_dir, de->d_name);
			list_tree(&js, path, de->d_name);
		}
		closedir(d);
	}
	for (int i = 0; i < SCRAPE_THREADS; i++)
		if (pthread_create(&th[i], NULL, scrape_worker, &js) == 0)
			started++;
	if (!started)
		scrape_worker(&js);
	for (int i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	/* a family's samples together, under its HELP and TYPE */
	sb_init(&out);
	for (int f = 0; f < NR_FAMILIES; f++) {
		const char *suffix = !openmetrics &&
			strcmp(families[f].type, "counter") == 0 ? "_total" : "";

		sb_printf(&out, "# HELP %s%s %s\n# TYPE %s%s %s\n",
			  families[f].name, suffix, families[f].help,
			  families[f].name, suffix, families[f].type);
		for (size_t i = 0; i < js.n; i++)
			if (js.v[i].out.fam[f].len)
				sb_add(&out, js.v[i].out.fam[f].buf,
				       js.v[i].out.fam[f].len);
	}
	if (openmetrics)
		sb_puts(&out, "# EOF\n");
	for (size_t i = 0; i < js.n; i++) {
		struct job *j = &js.v[i];

		for (int f = 0; f < NR_FAMILIES; f++)
			sb_release(&j->out.fam[f]);
		free(j->path), free(j->tr), free(j->sys), free(j->ev);
	}
	free(js.v);
	if (sb_error(&out)) {
		sb_release(&out);
		return NULL;
	}
	*len = out.len;
	return sb_detach(&out);
}

/* ---- HTTP ---- */

static bool wants_openmetrics(struct MHD_Connection *c)
{
	const char *accept = MHD_lookup_connection_value(c, MHD_HEADER_KIND,
							 MHD_HTTP_HEADER_ACCEPT);

	return !accept || strstr(accept, "application/openmetrics-text") ||
	       !strstr(accept, "text/plain");
}

static enum MHD_Result reply(struct MHD_Connection *c, unsigned status,
			     const char *type, char *body, size_t len,
			     enum MHD_ResponseMemoryMode mode)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(len, body,
								 mode);
	enum MHD_Result ret;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c,
			      const char *url, const char *method,
			      const char *version, const char *upload,
			      size_t *upload_size, void **state)
{
	static int first_call;
	bool om;
	size_t len;
	char *body;

	(void)cls; (void)version; (void)upload; (void)upload_size;
	if (*state != &first_call) {	/* headers only, this time */
		*state = &first_call;
		return MHD_YES;
	}
	if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
		return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain",
			     (char *)"GET /metrics\n", 13,
			     MHD_RESPMEM_PERSISTENT);
	if (strcmp(url, "/metrics") != 0 && strcmp(url, "/") != 0)
		return reply(c, MHD_HTTP_NOT_FOUND, "text/plain",
			     (char *)"GET /metrics\n", 13,
			     MHD_RESPMEM_PERSISTENT);
	om = wants_openmetrics(c);
	body = scrape_all(om, &len);
	if (!body)
		return reply(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "text/plain",
			     (char *)"out of memory\n", 14,
			     MHD_RESPMEM_PERSISTENT);
	return reply(c, MHD_HTTP_OK, om ?
		     "application/openmetrics-text; version=1.0.0; charset=utf-8" :
		     "text/plain; version=0.0.4; charset=utf-8",
		     body, len, MHD_RESPMEM_MUST_FREE);
}

/* "ADDR:PORT", "[V6ADDR]:PORT" or ":PORT" (loopback) */
static int parse_listen(const char *s, struct sockaddr_storage *ss,
			socklen_t *len)
{
	struct sockaddr_in *in4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;
	const char *colon = strrchr(s, ':');
	char host[128];
	char *end;
	long port;

	memset(ss, 0, sizeof(*ss));
	if (!colon || (size_t)(colon - s) >= sizeof(host))
		return -1;
	port = strtol(colon + 1, &end, 10);
	if (*end || port < 0 || port > 65535 || end == colon + 1)
		return -1;
	snprintf(host, sizeof(host), "%.*s", (int)(colon - s), s);
	if (host[0] == '[' && host[strlen(host) - 1] == ']') {
		memmove(host, host + 1, strlen(host));
		host[strlen(host) - 1] = 0;
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons((uint16_t)port);
		*len = sizeof(*in6);
		return inet_pton(AF_INET6, host, &in6->sin6_addr) == 1 ? 0 : -1;
	}
	in4->sin_family = AF_INET;
	in4->sin_port = htons((uint16_t)port);
	*len = sizeof(*in4);
	return inet_pton(AF_INET, host[0] ? host : "127.0.0.1",
			 &in4->sin_addr) == 1 ? 0 : -1;
}

static const char metrics_usage[] =
"Usage: tracefuse metrics [--listen ADDR:PORT] MOUNT\n"
"\n"
"Serves every histogram of the tracefs tree at MOUNT (all events, the\n"
"instances too) over HTTP at /metrics, in the OpenMetrics text format\n"
"(Prometheus's text format 0.0.4 to clients that ask only for\n"
"text/plain), until SIGINT or SIGTERM.\n"
"\n"
"  --listen ADDR:PORT  where to listen (default 127.0.0.1:9464, loopback\n"
"                      only; [::1]:PORT for IPv6; port 0 picks one)\n";

int tf_cli_metrics(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "listen", required_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *listen = "127.0.0.1:9464";
	struct sockaddr_storage ss;
	socklen_t sslen;
	struct MHD_Daemon *d;
	const union MHD_DaemonInfo *info;
	sigset_t set;
	int c, sig;
	char events[4200];

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'l': listen = optarg; break;
		case 'h': fputs(metrics_usage, stdout); return 0;
		default: fputs(metrics_usage, stderr); return 2;
		}
	}
	if (optind != argc - 1) {
		fputs(metrics_usage, stderr);
		return 2;
	}
	mount_dir = argv[optind];
	snprintf(events, sizeof(events), "%s/events", mount_dir);
	if (access(events, R_OK | X_OK) < 0) {
		fprintf(stderr, "tracefuse metrics: %s: %s (not a tracefs "
			"tree?)\n", events, strerror(errno));
		return 1;
	}
	if (parse_listen(listen, &ss, &sslen) < 0) {
		fprintf(stderr, "tracefuse metrics: --listen %s: not "
			"ADDR:PORT\n", listen);
		return 2;
	}
	/* signals wait for sigwait(), not for MHD's thread */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG |
			     (ss.ss_family == AF_INET6 ? MHD_USE_IPv6 : 0),
			     0, NULL, NULL, handle, NULL,
			     MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
			     MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)30,
			     MHD_OPTION_END);
	if (!d) {
		fprintf(stderr, "tracefuse metrics: cannot listen on %s\n",
			listen);
		return 1;
	}
	info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
	{
		int hl = (int)(strrchr(listen, ':') - listen);

		fprintf(stderr, "tracefuse metrics: serving %s at "
			"http://%.*s:%u/metrics\n", mount_dir,
			hl ? hl : 9, hl ? listen : "127.0.0.1",
			info ? info->port : 0);
	}
	(void)sslen;
	while (sigwait(&set, &sig) != 0)
		;
	MHD_stop_daemon(d);
	return 0;
}

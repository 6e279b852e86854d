// SPDX-License-Identifier: GPL-2.0
/*
 * registry.c - loading event schemas with libtraceevent (see registry.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "events/ksyms.h"
#include "events/registry.h"
#include "util/kstrto.h"

/* The kernel's filter_assign_type(), on the type as the format spells it. */
enum tf_field_kind tf_field_kind_of(const struct tep_format_field *f)
{
	const char *type = f->type;

	if (strstr(type, "__data_loc")) {
		if (strstr(type, "char"))
			return TF_FIELD_STR_DYN;
		if (strstr(type, "cpumask_t"))
			return TF_FIELD_CPUMASK;
		return TF_FIELD_DYN_ARRAY;
	}
	if (strstr(type, "__rel_loc") && strstr(type, "char"))
		return TF_FIELD_STR_REL;
	if (strchr(type, '[') && strstr(type, "char"))
		return TF_FIELD_STR_STATIC;
	if (strcmp(type, "char *") == 0 || strcmp(type, "const char *") == 0)
		return TF_FIELD_STR_PTR;
	if (strstr(type, "cpumask"))
		return TF_FIELD_CPUMASK;
	if (f->flags & TEP_FIELD_IS_ARRAY)
		return TF_FIELD_ARRAY;
	return TF_FIELD_NUM;
}

static size_t list_len(const struct tep_format_field *f)
{
	size_t n = 0;

	for (; f; f = f->next)
		n++;
	return n;
}

static int add_fields(struct tf_field *out, const struct tep_format_field *f,
		      bool common)
{
	int n = 0;

	for (; f; f = f->next, n++) {
		out[n] = (struct tf_field) {
			.name = f->name,
			.type = f->type,
			.offset = (unsigned)f->offset,
			.size = (unsigned)f->size,
			.is_signed = (f->flags & TEP_FIELD_IS_SIGNED) != 0,
			.is_common = common,
			.kind = tf_field_kind_of(f),
		};
	}
	return n;
}

/* Makes room for entry @i of a chunked pointer array. */
static int chunk_reserve(void **chunks[], unsigned i)
{
	unsigned c = i >> TF_CHUNK_SHIFT;
	void **chunk;

	if (i >= TF_MAX_EVENTS)
		return -ENOSPC;
	if (chunks[c])
		return 0;
	chunk = calloc(TF_CHUNK, sizeof(*chunk));
	if (!chunk)
		return -ENOMEM;
	/* readers reach it only through a count published after it */
	__atomic_store_n(&chunks[c], chunk, __ATOMIC_RELEASE);
	return 0;
}

/* Room for event index @i: its pointer and its generation. */
static int event_reserve(struct tf_registry *reg, unsigned i)
{
	unsigned c = i >> TF_CHUNK_SHIFT;
	int ret = chunk_reserve((void ***)reg->event_chunks, i);

	if (ret == 0 && !reg->gen_chunks[c]) {
		uint32_t *gens = calloc(TF_CHUNK, sizeof(*gens));

		if (!gens)
			return -ENOMEM;
		__atomic_store_n(&reg->gen_chunks[c], gens, __ATOMIC_RELEASE);
	}
	return ret;
}

static void slot_set(struct tf_registry *reg, unsigned i, struct tf_event *ev)
{
	__atomic_store_n(&reg->event_chunks[i >> TF_CHUNK_SHIFT]
					   [i & (TF_CHUNK - 1)],
			 ev, __ATOMIC_RELEASE);
}

static struct tf_system *system_find(const struct tf_registry *reg,
				     const char *name)
{
	unsigned nr = reg->nr_systems;

	for (unsigned i = 0; i < nr; i++) {
		struct tf_system *sys = tf_registry_system_at(reg, i);

		if (strcmp(sys->name, name) == 0)
			return sys;
	}
	return NULL;
}

/*
 * The value of a format text's header line ("name: ", "ID: "), copied
 * into @buf; false when there is none.  Read before parsing: tep keeps
 * whatever it parses, and a second event of the same name or id would
 * make it print the first one's records with the other's format.
 */
static bool header_value(const char *text, size_t len, const char *key,
			 char *buf, size_t size)
{
	size_t klen = strlen(key);

	for (const char *p = text; p && p < text + len;) {
		const char *nl = memchr(p, '\n', (size_t)(text + len - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(text + len - p);

		if (n > klen && n - klen < size && !memcmp(p, key, klen)) {
			memcpy(buf, p + klen, n - klen);
			buf[n - klen] = '\0';
			return true;
		}
		p = nl ? nl + 1 : NULL;
	}
	return false;
}

/* trace_marker's event, ftrace:print (struct tf_event.is_ftrace_print) */
static bool is_ftrace_print(const char *system, const char *name)
{
	return strcmp(system, "ftrace") == 0 && strcmp(name, "print") == 0;
}

int tf_registry_prepare(struct tf_registry *reg, const char *system,
			const char *text, size_t len, struct tf_event **out)
{
	unsigned idx = reg->nr_events;
	struct tep_event *tev = NULL;
	struct tf_system *sys;
	struct tf_field *fields = NULL;
	struct tf_event *ev = NULL;
	char *fmt = NULL, name[256], id[16];
	const char *pf;
	unsigned n;
	int ret;

	if (header_value(text, len, "name: ", name, sizeof(name)) &&
	    tf_registry_find(reg, system, name))
		return -EEXIST;
	if (header_value(text, len, "ID: ", id, sizeof(id)) &&
	    tf_registry_find_id(reg, atoi(id)))
		return -EEXIST;
	ret = event_reserve(reg, idx);
	if (ret == 0)
		ret = chunk_reserve((void ***)reg->system_chunks,
				    reg->nr_systems);
	if (ret < 0)
		return ret;
	pthread_mutex_lock(&reg->tep_lock);
	ret = tep_parse_format(reg->tep, &tev, text, len, system);
	pthread_mutex_unlock(&reg->tep_lock);
	if (ret != 0 || !tev)
		return -EINVAL;
	if (tev->id < 0 || tev->id >= (int)TF_MAX_EVENTS ||
	    chunk_reserve((void ***)reg->id_chunks, (unsigned)tev->id) < 0)
		return -EINVAL;
	sys = system_find(reg, tev->system);
	ev = calloc(1, sizeof(*ev));
	/* the lists' lengths, not nr_common/nr_fields: a damaged format
	 * (from a trace.dat) can make libtraceevent's counts fall short */
	fields = calloc(list_len(tev->format.common_fields) +
			list_len(tev->format.fields) + 1, sizeof(*fields));
	fmt = strndup(text, len);
	if (!sys) {
		sys = calloc(1, sizeof(*sys));
		if (sys) {
			sys->name = tev->system;
			sys->index = reg->nr_systems;
		}
	}
	if (!ev || !fields || !fmt || !sys) {
		if (sys && sys->index == reg->nr_systems)	/* new */
			free(sys);
		free(ev);
		free(fields);
		free(fmt);
		return -ENOMEM;
	}
	n = (unsigned)add_fields(fields, tev->format.common_fields, true);
	n += (unsigned)add_fields(fields + n, tev->format.fields, false);
	pf = strstr(fmt, "\nprint fmt: ");
	*ev = (struct tf_event) {
		.system = tev->system,
		.name = tev->name,
		.id = tev->id,
		.nr_fields = n,
		.fields = fields,
		.format_text = fmt,
		.print_fmt = pf ? pf + strlen("\nprint fmt: ") : "",
		.index = idx,
		.sys_index = sys->index,
		.tep_event = tev,
		.is_ftrace_print = is_ftrace_print(tev->system, tev->name),
	};
	CDS_INIT_LIST_HEAD(&ev->order);
	slot_set(reg, idx, ev);
	if (sys->index == reg->nr_systems)
		reg->system_chunks[sys->index >> TF_CHUNK_SHIFT]
				  [sys->index & (TF_CHUNK - 1)] = sys;
	*out = ev;
	return 0;
}

unsigned tf_registry_next_index(const struct tf_registry *reg)
{
	unsigned nr = reg->nr_events;

	if (reg->nr_vacant)
		for (unsigned i = 0; i < nr; i++)
			if (!tf_registry_event(reg, i))
				return i;
	return nr;
}

int tf_registry_alloc_id(const struct tf_registry *reg, int min)
{
	for (int id = min < 0 ? 0 : min; id < (int)TF_MAX_EVENTS; id++)
		if (!tf_registry_event_by_id(reg, id))
			return id;
	return -ENOSPC;
}

int tf_registry_prepare_built(struct tf_registry *reg, struct tf_event *ev,
			      const char *system)
{
	unsigned idx = tf_registry_next_index(reg);
	struct tf_system *sys;
	uint32_t gen = 0;
	int ret;

	if (ev->id < 0 || (unsigned)ev->id >= TF_MAX_EVENTS ||
	    tf_registry_event_by_id(reg, ev->id) ||
	    tf_registry_find(reg, system, ev->name))
		return -EEXIST;
	ret = event_reserve(reg, idx);
	if (ret == 0)
		ret = chunk_reserve((void ***)reg->system_chunks,
				    reg->nr_systems);
	if (ret == 0)
		ret = chunk_reserve((void ***)reg->id_chunks, (unsigned)ev->id);
	if (ret < 0)
		return ret;
	sys = system_find(reg, system);
	if (!sys) {
		sys = calloc(1, sizeof(*sys));
		if (!sys)
			return -ENOMEM;
		sys->name = strdup(system);
		if (!sys->name) {
			free(sys);
			return -ENOMEM;
		}
		sys->own_name = true;
		sys->index = reg->nr_systems;
		reg->system_chunks[sys->index >> TF_CHUNK_SHIFT]
				  [sys->index & (TF_CHUNK - 1)] = sys;
	}
	if (idx < reg->nr_events)	/* a removed event's: a new generation */
		gen = (tf_registry_slot_gen(reg, idx) + 1) & 0xffff;
	ev->system = sys->name;
	ev->is_ftrace_print = is_ftrace_print(system, ev->name);
	ev->index = idx;
	ev->sys_index = sys->index;
	ev->sys_next = NULL;
	ev->gen = gen;
	CDS_INIT_LIST_HEAD(&ev->order);
	__atomic_store_n(&reg->gen_chunks[idx >> TF_CHUNK_SHIFT]
					 [idx & (TF_CHUNK - 1)],
			 gen, __ATOMIC_RELEASE);
	/* an appended index is reached only through the count, published
	 * by commit; a vacant one only once commit stores the event */
	if (idx == reg->nr_events)
		slot_set(reg, idx, ev);
	return 0;
}

/*
 * Publication order: the event at its index (the count first for a new
 * index: every entry below it is complete, and so is every trace
 * array's file for it), its id, then the system's list, then a new
 * system (whose first event is set before it is counted).
 */
void tf_registry_commit(struct tf_registry *reg, struct tf_event *ev)
{
	struct tf_system *sys = reg->system_chunks[ev->sys_index >>
						   TF_CHUNK_SHIFT]
						  [ev->sys_index &
						   (TF_CHUNK - 1)];

	if (ev->index < reg->nr_events) {
		slot_set(reg, ev->index, ev);
		reg->nr_vacant--;
	} else {
		atomic_store_explicit(&reg->nr_events, ev->index + 1,
				      memory_order_release);
	}
	__atomic_store_n(&reg->id_chunks[ev->id >> TF_CHUNK_SHIFT]
				       [ev->id & (TF_CHUNK - 1)],
			 ev, __ATOMIC_RELEASE);
	ev->seq = reg->next_seq++;
	cds_list_add_tail(&ev->order, &reg->order);
	if (sys->last)
		__atomic_store_n(&sys->last->sys_next, ev, __ATOMIC_RELEASE);
	else
		__atomic_store_n(&sys->first, ev, __ATOMIC_RELEASE);
	sys->last = ev;
	if (sys->index == reg->nr_systems)
		atomic_store_explicit(&reg->nr_systems, sys->index + 1,
				      memory_order_release);
}

bool tf_registry_unlink(struct tf_registry *reg, struct tf_event *ev)
{
	struct tf_system *sys = tf_registry_system_at(reg, ev->sys_index);
	struct tf_event *prev = NULL, *p;

	slot_set(reg, ev->index, NULL);
	reg->nr_vacant++;
	if (tf_registry_event_by_id(reg, ev->id) == ev)
		__atomic_store_n(&reg->id_chunks[ev->id >> TF_CHUNK_SHIFT]
					       [ev->id & (TF_CHUNK - 1)],
				 NULL, __ATOMIC_RELEASE);
	cds_list_del(&ev->order);
	/* a reader standing on @ev still finds the rest through its
	 * sys_next, which is left as it is */
	for (p = sys->first; p && p != ev; p = p->sys_next)
		prev = p;
	if (p) {
		if (prev)
			__atomic_store_n(&prev->sys_next, ev->sys_next,
					 __ATOMIC_RELEASE);
		else
			__atomic_store_n(&sys->first, ev->sys_next,
					 __ATOMIC_RELEASE);
		if (sys->last == ev)
			sys->last = prev;
	}
	return sys->first == NULL;
}

static void free_parsed(struct tf_event *ev)
{
	free((void *)ev->fields);
	free((void *)ev->format_text);
	free((void *)ev->kernel_release);
	free(ev);
}

void tf_registry_release_event(struct tf_event *ev)
{
	if (ev->release)
		ev->release(ev);
	else
		free_parsed(ev);
}

int tf_registry_add_format(struct tf_registry *reg, const char *system,
			   const char *text, size_t len)
{
	struct tf_event *ev;
	int ret = tf_registry_prepare(reg, system, text, len, &ev);

	if (ret < 0)
		return ret;
	tf_registry_commit(reg, ev);
	return 0;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names of the subdirectories of @dirfd/@path. */
static char **list_dirs(int dirfd, const char *path, size_t *np)
{
	int fd = openat(dirfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char **names = NULL;
	size_t n = 0;
	struct dirent *de;
	DIR *d;

	*np = 0;
	if (fd < 0 || !(d = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || (de->d_type != DT_DIR &&
					     de->d_type != DT_UNKNOWN))
			continue;
		char **p = realloc(names, (n + 1) * sizeof(*names));
		if (!p)
			break;
		names = p;
		names[n] = strdup(de->d_name);
		if (names[n])
			n++;
	}
	closedir(d);
	if (names)
		qsort(names, n, sizeof(*names), name_cmp);
	*np = n;
	return names;
}

static void free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static void load_one(struct tf_registry *reg, int dirfd, const char *sys,
		     const char *event)
{
	char path[1024];
	size_t len;
	char *text;

	if (tf_registry_find(reg, sys, event))
		return;
	snprintf(path, sizeof(path), "%s/%s/format", sys, event);
	text = tf_read_file_at(dirfd, path, &len);
	if (text)
		tf_registry_add_format(reg, sys, text, len);
	free(text);
}

int tf_registry_load(struct tf_registry **out, int dirfd,
		     const char *order_text, const char *desc)
{
	struct tf_registry *reg = calloc(1, sizeof(*reg));
	size_t nsys, len;
	char **systems;

	if (!reg)
		return -ENOMEM;
	pthread_mutex_init(&reg->tep_lock, NULL);
	CDS_INIT_LIST_HEAD(&reg->order);
	reg->tep = tep_alloc();
	reg->ksyms = tf_ksyms_new();
	reg->source_desc = strdup(desc ? desc : "");
	if (!reg->tep || !reg->ksyms) {
		tf_registry_free(reg);
		return -ENOMEM;
	}
	tep_set_long_size(reg->tep, (int)sizeof(long));
	tep_set_page_size(reg->tep, (int)sysconf(_SC_PAGESIZE));
	/* %pS and friends: the tree's kernel symbols (events/ksyms.c) */
	tf_ksyms_attach(reg->ksyms, reg->tep);
	reg->header_page = tf_read_file_at(dirfd, "header_page", &len);
	if (reg->header_page)
		tep_parse_header_page(reg->tep, reg->header_page, len,
				      (int)sizeof(long));
	reg->header_event = tf_read_file_at(dirfd, "header_event", NULL);

	/* available_events order first: it is the kernel's list order. */
	if (order_text) {
		char *copy = strdup(order_text), *save = NULL, *line;

		for (line = copy ? strtok_r(copy, "\n", &save) : NULL; line;
		     line = strtok_r(NULL, "\n", &save)) {
			char *colon = strchr(line, ':');

			if (!colon)
				continue;
			*colon = '\0';
			load_one(reg, dirfd, line, colon + 1);
		}
		free(copy);
	}
	systems = list_dirs(dirfd, ".", &nsys);
	for (size_t i = 0; i < nsys; i++) {
		size_t nev;
		char **events = list_dirs(dirfd, systems[i], &nev);

		for (size_t j = 0; j < nev; j++)
			load_one(reg, dirfd, systems[i], events[j]);
		free_names(events, nev);
	}
	free_names(systems, nsys);
	if (reg->nr_events == 0) {
		tf_registry_free(reg);
		return -ENOENT;
	}
	*out = reg;
	return 0;
}

void tf_registry_free(struct tf_registry *reg)
{
	unsigned nr;

	if (!reg)
		return;
	nr = reg->nr_events;
	for (unsigned i = 0; i < nr; i++) {
		struct tf_event *ev = tf_registry_event(reg, i);

		if (ev)
			tf_registry_release_event(ev);
	}
	nr = reg->nr_systems;
	for (unsigned i = 0; i < nr; i++) {
		struct tf_system *sys = tf_registry_system_at(reg, i);

		if (sys->own_name)
			free((void *)sys->name);
		free(sys);
	}
	for (unsigned c = 0; c < TF_NR_CHUNKS; c++) {
		free(reg->event_chunks[c]);
		free(reg->system_chunks[c]);
		free(reg->id_chunks[c]);
		free(reg->gen_chunks[c]);
	}
	free(reg->header_page);
	free(reg->header_event);
	free(reg->source_desc);
	free(reg->kernel_release);
	if (reg->tep)
		tep_free(reg->tep);
	tf_ksyms_free(reg->ksyms);	/* after tep: its resolver reads them */
	pthread_mutex_destroy(&reg->tep_lock);
	free(reg);
}

struct tf_event *tf_registry_find(const struct tf_registry *reg,
				  const char *system, const char *name)
{
	const struct tf_system *sys = tf_registry_system(reg, system);

	if (!sys)
		return NULL;
	for (struct tf_event *ev = tf_system_first_event(sys); ev;
	     ev = tf_system_next_event(ev))
		if (strcmp(ev->name, name) == 0)
			return ev;
	return NULL;
}

struct tf_event *tf_registry_find_id(const struct tf_registry *reg, int id)
{
	return tf_registry_event_by_id(reg, id);
}

const struct tf_system *tf_registry_system(const struct tf_registry *reg,
					   const char *name)
{
	return system_find(reg, name);
}

const struct tf_system *tf_event_system(const struct tf_registry *reg,
					const struct tf_event *ev)
{
	return tf_registry_system_at(reg, ev->sys_index);
}

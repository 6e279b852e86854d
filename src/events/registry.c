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

static struct tf_system *system_get(struct tf_registry *reg, const char *name)
{
	struct tf_system *sys;

	for (unsigned i = 0; i < reg->nr_systems; i++)
		if (strcmp(reg->systems[i].name, name) == 0)
			return &reg->systems[i];
	sys = realloc(reg->systems, (reg->nr_systems + 1) * sizeof(*sys));
	if (!sys)
		return NULL;
	reg->systems = sys;
	sys = &reg->systems[reg->nr_systems];
	memset(sys, 0, sizeof(*sys));
	sys->index = reg->nr_systems++;
	return sys;
}

int tf_registry_add_format(struct tf_registry *reg, const char *system,
			   const char *text, size_t len)
{
	struct tep_event *tev = NULL;
	struct tf_event *ev, **events;
	struct tf_system *sys;
	struct tf_field *fields;
	unsigned *sys_events;
	const char *pf;

	if (tep_parse_format(reg->tep, &tev, text, len, system) != 0 || !tev)
		return -EINVAL;
	ev = calloc(1, sizeof(*ev));
	fields = calloc((size_t)(tev->format.nr_common + tev->format.nr_fields)
			+ 1, sizeof(*fields));
	char *fmt = strndup(text, len);
	events = realloc(reg->events, (reg->nr_events + 1) * sizeof(*events));
	if (events)
		reg->events = events;
	sys = events ? system_get(reg, tev->system) : NULL;
	sys_events = sys ? realloc(sys->events,
				   (sys->nr_events + 1) * sizeof(unsigned))
			 : NULL;
	if (!ev || !fields || !fmt || !sys_events) {
		free(ev);
		free(fields);
		free(fmt);
		return -ENOMEM;
	}
	sys->name = tev->system;
	sys->events = sys_events;
	sys->events[sys->nr_events++] = reg->nr_events;

	unsigned n = (unsigned)add_fields(fields, tev->format.common_fields,
					  true);
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
		.index = reg->nr_events,
		.tep_event = tev,
	};
	reg->events[reg->nr_events++] = ev;
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
	reg->tep = tep_alloc();
	reg->source_desc = strdup(desc ? desc : "");
	if (!reg->tep) {
		tf_registry_free(reg);
		return -ENOMEM;
	}
	tep_set_long_size(reg->tep, (int)sizeof(long));
	tep_set_page_size(reg->tep, (int)sysconf(_SC_PAGESIZE));
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
	if (!reg)
		return;
	for (unsigned i = 0; i < reg->nr_events; i++) {
		free((void *)reg->events[i]->fields);
		free((void *)reg->events[i]->format_text);
		free(reg->events[i]);
	}
	free(reg->events);
	for (unsigned i = 0; i < reg->nr_systems; i++)
		free(reg->systems[i].events);
	free(reg->systems);
	free(reg->header_page);
	free(reg->header_event);
	free(reg->source_desc);
	free(reg->kernel_release);
	if (reg->tep)
		tep_free(reg->tep);
	free(reg);
}

struct tf_event *tf_registry_find(const struct tf_registry *reg,
				  const char *system, const char *name)
{
	const struct tf_system *sys = tf_registry_system(reg, system);

	if (!sys)
		return NULL;
	for (unsigned i = 0; i < sys->nr_events; i++) {
		struct tf_event *ev = reg->events[sys->events[i]];

		if (strcmp(ev->name, name) == 0)
			return ev;
	}
	return NULL;
}

struct tf_event *tf_registry_find_id(const struct tf_registry *reg, int id)
{
	for (unsigned i = 0; i < reg->nr_events; i++)
		if (reg->events[i]->id == id)
			return reg->events[i];
	return NULL;
}

const struct tf_system *tf_registry_system(const struct tf_registry *reg,
					   const char *name)
{
	for (unsigned i = 0; i < reg->nr_systems; i++)
		if (strcmp(reg->systems[i].name, name) == 0)
			return &reg->systems[i];
	return NULL;
}

const struct tf_system *tf_event_system(const struct tf_registry *reg,
					const struct tf_event *ev)
{
	return tf_registry_system(reg, ev->system);
}

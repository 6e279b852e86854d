/* SPDX-License-Identifier: GPL-2.0 */
/*
 * inject.h - text injection: one line names an event and gives its field
 * values by name; the line is packed into the kernel's binary layout for
 * that event (docs/inject.md has the format) and dispatched.
 *
 * A struct tf_inject is a parser over one registry, used by one thread
 * at a time; it takes in the events a replay adds to the mounted tree
 * when a line names one it does not know yet.  A struct
 * tf_inject_stream cuts a byte stream into lines, parses them and
 * dispatches the records: the `inject:FILE` source and the daemon's
 * socket server (inject_server.c) both use it.
 */
#ifndef TF_SOURCE_INJECT_H
#define TF_SOURCE_INJECT_H

#include <stddef.h>
#include <stdint.h>

#include "events/registry.h"
#include "trace/trace_array.h"

/* The largest record one line can make (a 4 KiB sub-buffer's payload). */
#define TF_INJECT_MAX_RECORD 4072
/* The most kernel stack entries one line can carry. */
#define TF_INJECT_MAX_STACK 128
/* The longest line accepted. */
#define TF_INJECT_MAX_LINE 65536

struct tf_inject;

struct tf_inject *tf_inject_new(const struct tf_registry *reg);
void tf_inject_free(struct tf_inject *p);

/*
 * Parses one line (@len bytes, no newline).  Returns 1 with the record
 * in tf_inject_record(), 0 for a blank or comment line, -1 with the
 * message in tf_inject_error() ("line N: field \"x\": reason").
 */
int tf_inject_parse(struct tf_inject *p, const char *line, size_t len,
		    unsigned long lineno);
/* Valid until the next parse; ts is "now" when the line gave none. */
const struct tf_record *tf_inject_record(const struct tf_inject *p);
const char *tf_inject_error(const struct tf_inject *p);

/* Error callback of a stream: one message, no newline. */
typedef void (*tf_inject_error_fn)(void *arg, const char *msg);

struct tf_inject_stream {
	struct tf_inject *parser;
	struct tf_tracing *tracing;	/* NULL: parse only */
	tf_inject_error_fn on_error;
	void *arg;
	char *partial;			/* a line cut by the end of a chunk */
	size_t partial_len, partial_cap;
	unsigned long lineno;
	unsigned long records, errors;
	int skipping;			/* inside an over-long line */
	unsigned batch;			/* records under the read lock held */
};

void tf_inject_stream_init(struct tf_inject_stream *s, struct tf_inject *p,
			   struct tf_tracing *t, tf_inject_error_fn fn,
			   void *arg);
/* Parses and dispatches every complete line of @buf. */
void tf_inject_stream_feed(struct tf_inject_stream *s, const char *buf,
			   size_t len);
/* End of input: a last line without a newline counts too. */
void tf_inject_stream_finish(struct tf_inject_stream *s);
/*
 * End of input from a producer that ends every line it sends: a line
 * left without its newline was cut by the producer's death, and is
 * dropped, not parsed.  Returns its bytes so far (0: none was cut).
 */
size_t tf_inject_stream_abandon(struct tf_inject_stream *s);
void tf_inject_stream_release(struct tf_inject_stream *s);

/* The socket server of the daemon (inject_server.c); its path:
 * util/daemon_socket.h. */
struct tf_inject_server;
/* Before mount: resolves @mountpoint and binds the socket; *@out is the
 * server even when binding failed (then it serves nothing), NULL only
 * without memory. */
int tf_inject_server_init(const char *mountpoint,
			  struct tf_inject_server **out);
/* After daemonizing: serves clients against @t. */
int tf_inject_server_start(struct tf_inject_server *srv, struct tf_tracing *t);
/* Stops serving, waits for the connections to end, frees @srv. */
void tf_inject_server_stop(struct tf_inject_server *srv);

#endif

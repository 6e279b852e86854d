// SPDX-License-Identifier: GPL-2.0
/*
 * replay_probe.h - whether libtracecmd can read a trace.dat without
 * crashing the process that reads it.
 */
#ifndef TF_SOURCE_REPLAY_PROBE_H
#define TF_SOURCE_REPLAY_PROBE_H

/*
 * Reads every record of @path with libtracecmd in a child process.
 * 0: it read to the end; -EBADMSG: the child died or libtracecmd refused
 * the file (a corrupt or truncated trace.dat); other negative errnos
 * when the file cannot be opened or no child made.
 */
int tf_replay_probe(const char *path);

#endif

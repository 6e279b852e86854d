/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli.h - tracefuse's client commands: they read a mounted tracefs tree
 * (tracefuse's, or the kernel's) through its files, as a script would,
 * and share nothing with the daemon's engine.
 */
#ifndef TF_CLI_CLI_H
#define TF_CLI_CLI_H

/* `tracefuse export --perfetto OUT MOUNT` (export.c) */
int tf_cli_export(int argc, char **argv);

/* `tracefuse hist --json PATH` (hist_json.c) */
int tf_cli_hist(int argc, char **argv);
/* `tracefuse metrics --listen ADDR MOUNT` (metrics.c) */
int tf_cli_metrics(int argc, char **argv);
/* The whole of a file, NUL-terminated (malloc'd); NULL and *err set. */
char *tf_cli_read_file(const char *path, int *err);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run.h - `tracefuse run [OPTIONS] -- COMMAND...`: COMMAND in a private
 * mount namespace where /sys/kernel/tracing is tracefuse.
 */
#ifndef TF_RUN_H
#define TF_RUN_H

/* The `run` subcommand; @argv[0] is "run".  Returns the exit status. */
int tf_run_main(int argc, char **argv);

/*
 * The host tracefs fd for the daemon: the one `run` opened before
 * mounting over the host's paths, else tf_host_tracefs_open().
 */
int tf_run_host_fd(void);

#endif

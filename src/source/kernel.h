/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kernel.h - the live kernel source (`--source kernel`): real tracepoints
 * from a private instance on the host's tracefs.
 */
#ifndef TF_SOURCE_KERNEL_H
#define TF_SOURCE_KERNEL_H

/*
 * The host's tracefs root (a directory fd opened before tracefuse
 * mounts, see tf_host_tracefs_open()); the kernel source reaches the
 * host only through it.  Call before tf_sources_add("kernel").
 */
void tf_kernel_source_set_host_fd(int fd);

/*
 * Events the host's buffers lost (overrun or dropped) on the host CPUs
 * that map to @cpu of @nr_cpus presented CPUs; 0 without a live source.
 */
unsigned long long tf_kernel_source_lost(int cpu, int nr_cpus);

#endif

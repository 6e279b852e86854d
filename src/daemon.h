/* SPDX-License-Identifier: GPL-2.0 */
/*
 * daemon.h - start-up pieces of the tracefuse daemon: finding the host's
 * tracefs and loading the schemas the tree presents.
 */
#ifndef TF_DAEMON_H
#define TF_DAEMON_H

#include "events/registry.h"

/*
 * A directory fd of the host's tracefs root: a mounted one, or one this
 * process mounts privately and detaches.  -errno when there is none.
 * Opened before tracefuse mounts, it stays valid even when tracefuse is
 * mounted over the host's tracefs.
 */
int tf_host_tracefs_open(void);

/*
 * Loads schemas: from @formats_dir when given, else from the host's
 * tracefs (@host_fd >= 0), else from the formats bundled in data/.
 */
int tf_load_registry(struct tf_registry **reg, const char *formats_dir,
		     int host_fd);

/* The directory of the bundled data (formats/, sample.dat). */
const char *tf_data_dir(void);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trigger_internal.h - what trigger.c and trigger_cmds.c share.
 */
#ifndef TF_TRIGGER_INTERNAL_H
#define TF_TRIGGER_INTERNAL_H

#include "trigger/trigger.h"

/* The built-in commands, in the kernel's registration order. */
extern const struct tf_event_command *const tf_builtin_commands[];
extern const unsigned tf_nr_builtin_commands;

/* The target event of an enable_event/disable_event/enable_hist/
 * disable_hist trigger (NULL for other triggers). */
struct tf_event_file *tf_trigger_enable_target(const struct tf_trigger *d);

/* The registered trigger of the same type (and target) as @test. */
struct tf_trigger *tf_trigger_find_same(struct tf_event_file *file,
					const struct tf_trigger *test);

#endif

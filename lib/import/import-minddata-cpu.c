/*
 * minddata_cpu_utilization_<d>.json (ascend.md §2.11): system (device_info),
 * process and per-op CPU series, percentages per sample. Each series becomes
 * a PT_TRACK_COUNTER track (names in model.h); sample i has time
 * time_stamp[i] ms × 10^6, else i × sampling_interval (counted in the
 * device's stat "minddata.cpu.unstamped": such times are not in the host
 * steady clock, so model/hostcpu.c places no sample of that device in a
 * step). The op entry with id
 * -1 (unattributed threads) is ignored. Fatal: JSON that does not parse or is
 * not an object. Warnings: non-numeric samples (skipped), op entries without
 * an op id, op ids absent from the device's pipeline.
 */
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "import/import-minddata.h"
#include "model/model.h"
#include "support/diag.h"
#include "support/err.h"

struct series_ctx {
	struct pt_model *m;
	uint32_t dev;
	const char *path;
	struct pt_diag *diag;
	json_t *stamps;
	int64_t interval_ns;
	int64_t samples;
	int64_t unstamped; /* samples without a time_stamp entry: index × interval */
};

static void series(struct series_ctx *c, json_t *arr, int64_t stream, const char *name)
{
	if (!arr)
		return;
	if (!json_is_array(arr)) {
		pt_diag_warn(c->diag, c->path, "ignored CPU series that are not lists", PT_POS_NONE, 0);
		return;
	}
	uint32_t track = pt_model_track(c->m, c->dev, PT_TRACK_COUNTER, stream, name);
	for (size_t i = 0; i < json_array_size(arr); i++) {
		json_t *v = json_array_get(arr, i);
		if (!json_is_number(v) || !isfinite(json_number_value(v))) {
			pt_diag_warn(c->diag, c->path, "skipped non-numeric CPU samples", PT_POS_NONE, 0);
			continue;
		}
		int64_t t;
		json_t *ts = json_array_get(c->stamps, i); /* NULL when absent */
		if (json_is_integer(ts) && json_integer_value(ts) >= 0 &&
		    json_integer_value(ts) <= PT_TIME_LIMIT / 1000000) {
			t = (int64_t)json_integer_value(ts) * 1000000;
		} else if (__builtin_mul_overflow((int64_t)i, c->interval_ns, &t) || t > PT_TIME_LIMIT) {
			/* neither is within the model's time range (model/model.h) */
			pt_diag_warn(c->diag, c->path, "skipped CPU samples beyond 2^62 ns", PT_POS_NONE, 0);
			continue;
		} else {
			c->unstamped++;
		}
		pt_model_add_counter_sample(c->m, track, t, json_number_value(v));
		c->samples++;
	}
}

static const char *const sys_metrics[] = { "user", "sys", "io", "idle", "runable", "ctx_switch" };
static const char *const sys_keys[] = { "user_utilization", "sys_utilization", "io_utilization",
					"idle_utilization", "runable_processes", "context_switch_count" };

int pt_md_read_cpu(struct pt_model *m, uint32_t dev, const char *path, struct pt_diag *diag, struct pt_err **e)
{
	json_error_t je;
	json_t *root = json_load_file(path, JSON_DECODE_ANY, &je);
	if (!root)
		return pt_err(e, "CPU utilisation '%s': invalid JSON at line %d, byte %d: %s", path, je.line,
			      je.position, je.text);
	if (!json_is_object(root)) {
		json_decref(root);
		return pt_err(e, "CPU utilisation '%s': not a JSON object", path);
	}
	struct stat st;
	pt_model_add_source(m, path, stat(path, &st) ? 0 : (uint64_t)st.st_size, "minddata-cpu", (int32_t)dev);
	struct series_ctx c = { m, dev, path, diag, json_object_get(root, "time_stamp"), 0, 0, 0 };
	json_t *iv = json_object_get(root, "sampling_interval");
	if (json_is_integer(iv) && json_integer_value(iv) >= 0 && json_integer_value(iv) <= INT64_MAX / 1000000000000)
		c.interval_ns = (int64_t)json_integer_value(iv) * 1000000;
	else if (!json_is_array(c.stamps))
		pt_diag_warn(diag, path, "neither time_stamp nor sampling_interval: CPU samples at time 0", PT_POS_NONE,
			     0);
	if (!json_is_array(c.stamps))
		c.stamps = NULL;
	char name[96];
	json_t *di = json_object_get(root, "device_info");
	if (json_is_object(di)) {
		for (int k = 0; k < 6; k++) {
			snprintf(name, sizeof(name), "md_cpu:device.%s", sys_metrics[k]);
			series(&c, json_object_get(di, sys_keys[k]), -100 - k, name);
		}
	}
	json_t *pi = json_object_get(root, "process_info");
	if (json_is_object(pi)) {
		for (int k = 0; k < 2; k++) {
			snprintf(name, sizeof(name), "md_cpu:process.%s", sys_metrics[k]);
			series(&c, json_object_get(pi, sys_keys[k]), -110 - k, name);
		}
	}
	json_t *oi = json_object_get(root, "op_info");
	for (size_t i = 0; json_is_array(oi) && i < json_array_size(oi); i++) {
		json_t *o = json_array_get(oi, i);
		json_t *jid = json_is_object(o) ? json_object_get(o, "op_id") : NULL;
		if (!json_is_integer(jid) || json_integer_value(jid) < -1 ||
		    json_integer_value(jid) > (INT64_MAX - 2000) / 2) {
			pt_diag_warn(diag, path, "skipped CPU op entries without a valid op_id", PT_POS_NONE, 0);
			continue;
		}
		int64_t id = (int64_t)json_integer_value(jid);
		if (id == -1)
			continue; /* unattributed threads */
		bool known = false, any_op = false;
		for (size_t j = 0; j < m->md_ops.n; j++) {
			if (m->md_ops.v[j].device != dev)
				continue;
			any_op = true;
			known |= m->md_ops.v[j].op_id == id;
		}
		if (any_op && !known)
			pt_diag_warn(diag, path, "CPU entries of op ids absent from the pipeline", PT_POS_NONE, 0);
		json_t *met = json_object_get(o, "metrics");
		if (!json_is_object(met)) {
			pt_diag_warn(diag, path, "skipped CPU op entries without metrics", PT_POS_NONE, 0);
			continue;
		}
		for (int k = 0; k < 2; k++) {
			snprintf(name, sizeof(name), "md_cpu:op.%" PRId64 ".%s", id, sys_metrics[k]);
			series(&c, json_object_get(met, sys_keys[k]), -1000 - 2 * id - k, name);
		}
	}
	pt_model_stat_add(m, (int32_t)dev, "minddata.cpu.samples", c.samples);
	if (c.unstamped) /* their times are not in the host steady clock: never placed in steps */
		pt_model_stat_add(m, (int32_t)dev, "minddata.cpu.unstamped", c.unstamped);
	json_decref(root);
	return 0;
}

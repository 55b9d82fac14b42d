/*
 * info.json.<dev> (ascend.md §2.5): the device's counter frequency, its AI
 * Core frequency and core count, and from those the peak FLOPS (§3.9).
 */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "import/ascend.h"

/*
 * An exact decimal number of MHz ("100", "19.2", " 49 ") as kHz. Returns 0
 * for garbage, zero, more precision than 1 kHz, or overflow.
 */
static uint64_t parse_mhz(const char *s)
{
	uint64_t v = 0;
	int frac = -1; /* digits after the point, -1 = no point yet */
	bool digits = false;

	while (*s == ' ' || *s == '\t')
		s++;
	for (; *s; s++) {
		if (*s >= '0' && *s <= '9') {
			if (frac >= 3) {
				if (*s != '0')
					return 0; /* finer than 1 kHz */
				continue;
			}
			if (v > (UINT64_MAX - 9) / 10)
				return 0;
			v = v * 10 + (uint64_t)(*s - '0');
			digits = true;
			if (frac >= 0)
				frac++;
		} else if (*s == '.' && frac < 0) {
			frac = 0;
		} else {
			break;
		}
	}
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s || !digits)
		return 0;
	for (int i = frac < 0 ? 0 : frac; i < 3; i++) {
		if (v > UINT64_MAX / 10)
			return 0;
		v *= 10;
	}
	return v;
}

/* A frequency given as a string of MHz or, leniently, as a JSON number. */
static uint64_t json_mhz(json_t *j)
{
	char buf[64];

	if (json_is_string(j))
		return parse_mhz(json_string_value(j));
	if (json_is_integer(j)) {
		json_int_t v = json_integer_value(j);
		if (v <= 0 || (uint64_t)v > UINT64_MAX / 1000)
			return 0;
		return (uint64_t)v * 1000;
	}
	if (json_is_real(j)) {
		double v = json_real_value(j);
		if (!(v > 0 && v < 1e15))
			return 0;
		snprintf(buf, sizeof(buf), "%.3f", v);
		return parse_mhz(buf);
	}
	return 0;
}

int pt_ascend_read_info_json(struct pt_ascend_ctx *c, struct pt_ascend_dev *d, struct pt_err **e)
{
	struct pt_slices *s = &d->files[PT_AK_INFO_JSON];
	struct pt_model *m = c->m;
	json_error_t jerr;

	if (!s->n)
		return 0;
	const char *path = s->paths[0];
	json_t *root = json_load_file(path, 0, &jerr);
	if (!root)
		return pt_err(e, "'%s': invalid JSON at byte %d (line %d): %s", path, jerr.position, jerr.line,
			      jerr.text);

	json_t *di = json_object_get(root, "DeviceInfo");
	json_t *d0 = json_is_array(di) ? json_array_get(di, 0) : NULL;
	if (!json_is_object(d0)) {
		pt_diag_warn(c->diag, path, "ignored info.json files without DeviceInfo[0]", PT_POS_NONE, 0);
		json_decref(root);
		return 0;
	}
	struct pt_device *dev = &m->devices.v[d->dev];

	json_t *hf = json_object_get(d0, "hwts_frequency");
	if (hf) {
		uint64_t khz = json_mhz(hf);
		if (khz) {
			d->freq_khz = khz;
			pt_model_stat_set(m, (int32_t)d->dev, "info.hwts_freq_khz", (int64_t)khz);
		} else {
			pt_diag_warn(c->diag, path, "ignored invalid hwts_frequency values", PT_POS_NONE, 0);
		}
	}

	uint64_t aic_khz = 0;
	json_t *af = json_object_get(d0, "aic_frequency");
	if (af) {
		aic_khz = json_mhz(af);
		if (aic_khz) {
			dev->aic_freq_khz = aic_khz;
			pt_model_stat_set(m, (int32_t)d->dev, "info.aic_freq_khz", (int64_t)aic_khz);
		} else {
			pt_diag_warn(c->diag, path, "ignored invalid aic_frequency values", PT_POS_NONE, 0);
		}
	}

	uint32_t cores = 0;
	json_t *cn = json_object_get(d0, "ai_core_num");
	if (cn) {
		json_int_t v = json_is_integer(cn) ? json_integer_value(cn) : 0;
		if (v > 0 && v <= UINT32_MAX) {
			cores = (uint32_t)v;
			dev->ai_core_num = cores;
			pt_model_stat_set(m, (int32_t)d->dev, "info.ai_core_num", (int64_t)cores);
		} else {
			pt_diag_warn(c->diag, path, "ignored invalid ai_core_num values", PT_POS_NONE, 0);
		}
	}

	/* §3.9: aic_frequency[MHz] x 1e6 x cores x 4096 x 2 (Cube FP16 rate) */
	if (aic_khz && cores)
		dev->peak_flops = (double)aic_khz * 1000.0 * (double)cores * 8192.0;

	json_decref(root);
	return 0;
}

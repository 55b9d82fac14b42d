#include "import/ascend-tables.h"

#include <stdlib.h>
#include <string.h>

#include "support/xalloc.h"

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const char unknown[] = "UNKNOWN";

/* Old numbering starts at 26, new numbering at 29 (old + 3, plus COMPLEX). */
static const char *const vm_old[] = {
	"NUMBER_TYPE_BEGIN", "NUMBER_TYPE_BOOL", "NUMBER_TYPE_INT", "NUMBER_TYPE_INT8",
	"NUMBER_TYPE_INT16", "NUMBER_TYPE_INT32", "NUMBER_TYPE_INT64", "NUMBER_TYPE_UINT",
	"NUMBER_TYPE_UINT8", "NUMBER_TYPE_UINT16", "NUMBER_TYPE_UINT32", "NUMBER_TYPE_UINT64",
	"NUMBER_TYPE_FLOAT", "NUMBER_TYPE_FLOAT16", "NUMBER_TYPE_FLOAT32", "NUMBER_TYPE_FLOAT64",
	"NUMBER_TYPE_END",
};
static const char *const vm_new[] = {
	"NUMBER_TYPE_BEGIN", "NUMBER_TYPE_BOOL", "NUMBER_TYPE_INT", "NUMBER_TYPE_INT8",
	"NUMBER_TYPE_INT16", "NUMBER_TYPE_INT32", "NUMBER_TYPE_INT64", "NUMBER_TYPE_UINT",
	"NUMBER_TYPE_UINT8", "NUMBER_TYPE_UINT16", "NUMBER_TYPE_UINT32", "NUMBER_TYPE_UINT64",
	"NUMBER_TYPE_FLOAT", "NUMBER_TYPE_FLOAT16", "NUMBER_TYPE_FLOAT32", "NUMBER_TYPE_FLOAT64",
	"NUMBER_TYPE_COMPLEX", "NUMBER_TYPE_END",
};

const char *pt_ascend_vm_dtype(int code, int table)
{
	if (table == PT_DTYPE_TABLE_NEW) {
		if (code >= 29 && code - 29 < N(vm_new))
			return vm_new[code - 29];
	} else if (code >= 26 && code - 26 < N(vm_old)) {
		return vm_old[code - 26];
	}
	return unknown;
}

static const char *const ge_dtype[] = {
	"DT_FLOAT", "DT_FLOAT16", "DT_INT8", "DT_INT32", "DT_UINT8", NULL, "DT_INT16",
	"DT_UINT16", "DT_UINT32", "DT_INT64", "DT_UINT64", "DT_DOUBLE", "DT_BOOL",
	"DT_STRING", "DT_DUAL_SUB_INT8", "DT_DUAL_SUB_UINT8", "DT_COMPLEX64",
	"DT_COMPLEX128", "DT_QINT8", "DT_QINT16", "DT_QINT32", "DT_QUINT8", "DT_QUINT16",
	"DT_RESOURCE", "DT_STRING_REF", "DT_DUAL", "DT_UNDEFINED",
};

const char *pt_ascend_ge_dtype(int code)
{
	if (code >= 0 && code < N(ge_dtype) && ge_dtype[code])
		return ge_dtype[code];
	return unknown;
}

static const char *const ge_format[] = {
	"FORMAT_NCHW", "FORMAT_NHWC", "FORMAT_ND", "FORMAT_NC1HWC0", "FORMAT_FRACTAL_Z",
	"FORMAT_NC1C0HWPAD", "FORMAT_NHWC1C0", "FORMAT_FSR_NCHW", "FORMAT_FRACTAL_DECONV",
	"FORMAT_C1HWNC0", "FORMAT_FRACTAL_DECONV_TRANSPOSE", "FORMAT_FRACTAL_DECONV_SP_STRIDE_TRANS",
	"FORMAT_NC1HWC0_C04", "FORMAT_FRACTAL_Z_C04", "FORMAT_CHWN",
	"FORMAT_FRACTAL_DECONV_SP_STRIDE8_TRANS", "FORMAT_HWCN", "FORMAT_NC1KHKWHWC0",
	"FORMAT_BN_WEIGHT", "FORMAT_FILTER_HWCK", "FORMAT_HASHTABLE_LOOKUP_LOOKUPS",
	"FORMAT_HASHTABLE_LOOKUP_KEYS", "FORMAT_HASHTABLE_LOOKUP_VALUE",
	"FORMAT_HASHTABLE_LOOKUP_OUTPUT", "FORMAT_HASHTABLE_LOOKUP_HITS", "FORMAT_C1HWNCOC0",
	"FORMAT_MD", "FORMAT_NDHWC", "FORMAT_FRACTAL_ZZ", "FORMAT_FRACTAL_NZ", "FORMAT_NCDHW",
	"FORMAT_DHWCN", "FORMAT_NDC1HWC0", "FORMAT_FRACTAL_Z_3D", "FORMAT_CN", "FORMAT_NC",
	"FORMAT_DHWNC", "FORMAT_FRACTAL_Z_3D_TRANSPOSE", "FORMAT_RESERVED", "FORMAT_ALL",
};

const char *pt_ascend_ge_format(int code)
{
	if (code >= 0 && code < N(ge_format))
		return ge_format[code];
	return unknown;
}

static const char *const bin_format[] = {
	"UNKNOWN", "DEFAULT", "NC1KHKWHWC0", "ND", "NCHW", "NHWC", "HWCN", "NC1HWC0",
	"FRAC_Z", "C1HWNCOC0", "FRAC_NZ", "NC1HWC0_C04", "FRACTAL_Z_C04", "NDHWC",
	"FRACTAL_ZN_LSTM", "FRACTAL_ZN_RNN", "ND_RNN_BIAS", "NDC1HWC0", "NCDHW",
	"FRACTAL_Z_3D", "DHWNC", "DHWCN",
};

const char *pt_ascend_bin_format(int code)
{
	if (code >= 0 && code < N(bin_format))
		return bin_format[code];
	return unknown;
}

/* --- helpers shared by the framework readers ------------------------------- */

static uint32_t short_name(struct pt_model *m, const char *name, size_t len, bool ge, char *out)
{
	const char *slash = memchr(name, '/', len);
	size_t sublen = slash ? (size_t)(slash - name) : len;
	bool sub = (sublen == 7 && !memcmp(name, "Default", 7)) || (sublen == 9 && !memcmp(name, "Gradients", 9));
	if (!sub)
		return pt_strtab_intern(&m->strings, name, len);
	if (!ge) {
		const char *p = name + len;
		while (p > name && p[-1] != '/')
			p--;
		return pt_strtab_intern(&m->strings, p, len - (size_t)(p - name));
	}
	/* ge: split at every "<subgraph>/" */
	size_t olen = 0, seplen = sublen + 1;
	const char *end = name + len, *p = name;
	while (p < end) {
		const char *q = p, *next = end;
		for (; q + seplen <= end; q++)
			if (!memcmp(q, name, seplen)) {
				next = q;
				break;
			}
		if (next > p) {
			const char *s = next;
			while (s > p && s[-1] != '/')
				s--;
			if (olen)
				out[olen++] = '+';
			memcpy(out + olen, s, (size_t)(next - s));
			olen += (size_t)(next - s);
		}
		p = next < end ? next + seplen : end;
	}
	return pt_strtab_intern(&m->strings, out, olen);
}

uint32_t pt_ascend_short_name(struct pt_model *m, const char *name, size_t len, bool ge)
{
	/* name may point into m->strings, which interning can move: work on a copy */
	char *copy = pt_xmalloc(2 * len + 2);
	memcpy(copy, name, len);
	copy[len] = 0;
	uint32_t id = short_name(m, copy, len, ge, copy + len + 1);
	free(copy);
	return id;
}

bool pt_ascend_bind_task(struct pt_model *m, struct pt_ascend_dev *d, enum pt_ascend_era era, uint32_t stream,
			 uint64_t task, uint32_t op)
{
	char key[48];
	bool added, replaced = false;
	pt_ascend_task_key_str(era, stream, task, key);
	uint64_t *v = pt_hashmap_put(&d->task_op, pt_ascend_task_key(era, stream, task), op, &added);
	if (!added && *v != op) {
		struct pt_op *old = &m->ops.v[*v];
		for (size_t i = 0; i < old->task_keys.n; i++)
			if (!strcmp(old->task_keys.v[i], key)) {
				free(old->task_keys.v[i]);
				memmove(&old->task_keys.v[i], &old->task_keys.v[i + 1],
					(old->task_keys.n - i - 1) * sizeof(*old->task_keys.v));
				old->task_keys.n--;
				break;
			}
		*v = op;
		replaced = true;
	}
	pt_op_add_task_key(&m->ops.v[op], key);
	return replaced;
}

void pt_ascend_set_str(char **field, const char *v)
{
	free(*field);
	*field = v ? pt_xstrdup(v) : NULL;
}

bool pt_ascend_parse_u64(const char *s, size_t n, uint64_t *v)
{
	uint64_t x = 0;
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned dg = (unsigned)(unsigned char)s[i] - '0';
		if (dg > 9 || x > (UINT64_MAX - dg) / 10)
			return false;
		x = x * 10 + dg;
	}
	*v = x;
	return true;
}

bool pt_ascend_parse_i64(const char *s, size_t n, int64_t *v)
{
	bool neg = n && s[0] == '-';
	if (n && (s[0] == '-' || s[0] == '+')) {
		s++;
		n--;
	}
	uint64_t x;
	if (!pt_ascend_parse_u64(s, n, &x) || x > (uint64_t)INT64_MAX + neg)
		return false;
	*v = neg ? (int64_t)(0 - x) : (int64_t)x;
	return true;
}
